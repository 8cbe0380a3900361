export const REFERENCE_DIR: string;
export const REFERENCE_DIST: string;
export function ensureReferenceInstalled(log: (line: string) => void): void;
export function ensureReferenceBuilt(log: (line: string) => void): void;
