/**
 * Parley's own bounds for the chat domain (not from the spec). They belong beside LIMITS in
 * src/protocol/constants.ts; kept here until that file takes them.
 */
export const CHAT_LIMITS = {
  /** Stanza ids (ours are UUIDs); a longer id from the wire is refused. */
  stanzaIdLength: 256,
  /** Addresses from the wire or a tab (RFC 7622: three parts of at most 1023 bytes). */
  addressLength: 3_071,
  /** Real-time text actions in one `<rtt>` element; more is refused as a whole. */
  rttActionsPerEvent: 1_000,
  /** JSON payloads in one message; more is refused as a whole. */
  payloadsPerMessage: 16,
  /** A JSON command's `datatype`. */
  commandTypeLength: 256,
} as const;
