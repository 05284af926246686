#!/usr/bin/env node
// DuckDB runs queries on libuv's thread pool; a larger pool keeps slow sandbox queries from
// holding up other requests. It must be set before the pool first starts.
process.env.UV_THREADPOOL_SIZE ??= '16';
const { main } = await import('./commands.js');
const code = await main(process.argv.slice(2), process.env);
// A command that failed has said why: nothing it left open (a database connection waiting for
// a server that will not answer) keeps the process from ending.
if (code !== 0) {
  // What it said reaches a pipe first.
  await Promise.all(
    [process.stdout, process.stderr].map(
      (stream) => new Promise<void>((resolve) => stream.write('', () => resolve())),
    ),
  );
  process.exit(code);
}
