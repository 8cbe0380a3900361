import { expect, test } from '@playwright/test';

test('passes on its first run', () => {
  expect(1).toBe(1);
});

test('fails on its first run, passes on its retry', () => {
  expect(test.info().retry).toBe(1);
});

test('fails on every run', () => {
  expect(test.info().retry).toBe(-1);
});
