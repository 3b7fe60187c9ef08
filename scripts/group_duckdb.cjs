// SPDX-License-Identifier: Apache-2.0
// DuckDB's answer to `rowscan group SALES.csv --header --key customer --value price`, for the comparison
// in scripts/group_device.sh (docs/group.md): count, min, max and sum of price per customer, with price
// read as DECIMAL(18,2), in key order; each row `key|count|min|max|sum` on stdout, the query's seconds
// on stderr. Needs the npm package @duckdb/node-api (its native library comes inside the package):
//   DUCKDB_NODE_MODULES=DIR/node_modules node scripts/group_duckdb.cjs FILE THREADS [print]
const path = require('path');
const { DuckDBInstance } = require(path.join(process.env.DUCKDB_NODE_MODULES || 'node_modules', '@duckdb/node-api'));

async function main() {
  const [file, threads, print] = process.argv.slice(2);
  const db = await DuckDBInstance.create(':memory:', { threads: threads || '16' });
  const c = await db.connect();
  const start = performance.now();
  const result = await c.runAndReadAll(
    `SELECT customer, count(price), min(price), max(price), sum(price) FROM read_csv('${file}', header = true, ` +
    `columns = {'order_id': 'BIGINT', 'customer': 'VARCHAR', 'product': 'VARCHAR', 'city': 'VARCHAR', ` +
    `'note': 'VARCHAR', 'quantity': 'INTEGER', 'price': 'DECIMAL(18,2)'}) GROUP BY customer ORDER BY customer`);
  const seconds = (performance.now() - start) / 1000;
  const rows = result.getRows();
  process.stderr.write(`duckdb ${seconds.toFixed(3)} s, ${rows.length} keys, ${threads} threads\n`);
  if (print === 'print') {
    const lines = rows.map((row) => row.map((v) => (v === null ? '' : String(v))).join('|'));
    process.stdout.write(lines.join('\n') + '\n');
  }
}
main().catch((e) => {
  process.stderr.write(String(e) + '\n');
  process.exit(1);
});
