// Preloaded into a service process by bench/booking-cost.ts (`node --import`): counts the
// statements the process sends through `pg`, in all and per text, and writes them as JSON to
// QUERY_COUNT_FILE on SIGUSR2.
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

// The `pg` of the checkout the service runs from (its working directory), not this one's: a
// checkout compared with its own node_modules loads its own copy.
const pg = createRequire(`${process.cwd()}/`)('pg');

let count = 0;
const byText = new Map();
const query = pg.Client.prototype.query;
pg.Client.prototype.query = function counted(...args) {
  count++;
  const first = args[0];
  const text = typeof first === 'string' ? first : (first?.text ?? '?');
  const key = text.replace(/\s+/g, ' ').trim().slice(0, 160);
  byText.set(key, (byText.get(key) ?? 0) + 1);
  return query.apply(this, args);
};
process.on('SIGUSR2', () => {
  if (process.env.QUERY_COUNT_FILE)
    writeFileSync(
      process.env.QUERY_COUNT_FILE,
      JSON.stringify({ count, byText: Object.fromEntries(byText) }),
    );
});
