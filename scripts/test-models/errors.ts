/**
 * A failure `npm run models:test` reports as one line naming the file or the command, and
 * what to do. Anything else that escapes is a bug and prints its stack.
 */
export class ProvisionError extends Error {
  override name = 'ProvisionError';
}
