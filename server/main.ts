import { startParley } from './Parley';
import { takeParleySecrets } from './settings';

/** `npm start`'s server process: runs until SIGINT/SIGTERM/SIGHUP (its terminal closed), then stops every child. */
const parley = await startParley({}, (line) => process.stderr.write(`${line}\n`), takeParleySecrets());
console.log(`Parley ready at ${parley.url}`);

let stopping = false;
const shutdown = (): void => {
  if (stopping) return;
  stopping = true;
  parley.stop().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
};
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
// Unhandled, SIGHUP would end this process at once, leaving the XMPP server and the relay behind.
process.on('SIGHUP', shutdown);
