// PROTOCOL.md JSON commands (`urn:xmpp:json-msg:0` payloads): what Parley sends and accepts. That a
// malformed payload reads as MALFORMED_JSON instead of breaking the stream: protocol-tolerant-json.test.ts.
import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../src/protocol/constants';
import { ValidationError } from '../../src/protocol/errors';
import { MALFORMED_JSON } from '../../src/protocol/stanzas/tolerantJson';
import { incomingCommands, outgoingCommand } from '../../src/shared-worker/chat/JsonCommands';

describe('PROTOCOL.md JSON commands: type and data bounded', () => {
  it('sends JSON-safe data of a named type', () => {
    expect(outgoingCommand('mute', { track: 'audio', at: new Date(0) })).toEqual({ type: 'mute', data: { track: 'audio', at: '1970-01-01T00:00:00.000Z' } });
    expect(outgoingCommand('flag', null)).toEqual({ type: 'flag', data: null });
  });

  it('refuses an empty or long type, data that is not JSON, and data over LIMITS.jsonCommandBytes (UTF-8)', () => {
    expect(() => outgoingCommand('', {})).toThrow(ValidationError);
    expect(() => outgoingCommand('t'.repeat(LIMITS.jsonCommandTypeLength + 1), {})).toThrow(ValidationError);
    expect(() => outgoingCommand(7, {})).toThrow(ValidationError);
    expect(() => outgoingCommand('x', undefined)).toThrow(ValidationError);
    expect(() => outgoingCommand('x', () => 1)).toThrow(ValidationError);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => outgoingCommand('x', cyclic)).toThrow(ValidationError);
    // Under the bound in characters, over it in bytes.
    expect(() => outgoingCommand('x', 'é'.repeat(LIMITS.jsonCommandBytes / 2))).toThrow(ValidationError);
    expect(outgoingCommand('x', 'e'.repeat(LIMITS.jsonCommandBytes - 2)).type).toBe('x');
  });

  it('accepts payloads within bounds, data absent reading as null', () => {
    expect(incomingCommands([{ type: 'a', data: { n: 1 } }, { type: 'b' }])).toEqual({ commands: [{ type: 'a', data: { n: 1 } }, { type: 'b', data: null }] });
  });

  it('refuses a whole message with a malformed, oversized or untyped payload, or too many of them', () => {
    expect(incomingCommands([{ type: 'ok', data: 1 }, { type: 'bad', data: MALFORMED_JSON }])).toMatchObject({ problem: expect.stringContaining('malformed') });
    expect(incomingCommands([{ type: 'big', data: 'x'.repeat(LIMITS.jsonCommandBytes) }])).toMatchObject({ problem: expect.any(String) });
    expect(incomingCommands([{ type: undefined as unknown as string, data: 1 }])).toMatchObject({ problem: expect.any(String) });
    const many = Array.from({ length: LIMITS.jsonPayloadsPerMessage + 1 }, () => ({ type: 't', data: 1 }));
    expect(incomingCommands(many)).toMatchObject({ problem: expect.any(String) });
  });
});
