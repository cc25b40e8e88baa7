#!/usr/bin/env node
// Calls ScoringService for each job read from standard input, one JSON object a line, and
// writes one answer a line, in order:
//   {"rpc": "Settle" | "CheckWin" | "ListWaits" | "GetProfile", "request": {...}}
//   {"rpc": "SettleBatch" | "SettleStream", "requests": [{...}, ...]}
//   {"rpc": "ListProfiles"}
// answers {"response": ...} (SettleStream: {"responses": [...]}) or, for a refused call,
// {"error": {"code": "INVALID_ARGUMENT", "message": ..., "fieldViolations": [{field, description}]}}.
//
//   node shmj_node.js --target 127.0.0.1:50051 --proto-dir ../../proto --googleapis-dir DIR < jobs.jsonl
'use strict';

const readline = require('readline');
const grpc = require('@grpc/grpc-js');
const { DetailsDecoder, ScoringClient } = require('./scoring_client');

const CODE_NAMES = Object.fromEntries(Object.entries(grpc.status).map(([name, code]) => [code, name]));

function options(argv) {
  const found = { target: '127.0.0.1:50051', protoDir: `${__dirname}/../../proto`, googleapisDir: null, timeoutMs: 10000 };
  for (let i = 2; i < argv.length; i += 2) {
    const [flag, value] = [argv[i], argv[i + 1]];
    if (flag === '--target') found.target = value;
    else if (flag === '--proto-dir') found.protoDir = value;
    else if (flag === '--googleapis-dir') found.googleapisDir = value;
    else if (flag === '--timeout-ms') found.timeoutMs = Number(value);
    else throw new Error(`unknown flag ${flag}; flags: --target, --proto-dir, --googleapis-dir, --timeout-ms`);
  }
  if (!found.googleapisDir) throw new Error('--googleapis-dir: the directory that holds google/rpc/status.proto');
  return found;
}

async function answer(client, job) {
  switch (job.rpc) {
    case 'Settle': return { response: await client.settle(job.request) };
    case 'SettleBatch': return { response: await client.settleBatch(job.requests) };
    case 'SettleStream': return { responses: await client.settleStream(job.requests) };
    case 'CheckWin': return { response: await client.checkWin(job.request) };
    case 'ListWaits': return { response: await client.listWaits(job.request) };
    case 'GetProfile': return { response: await client.getProfile(job.request) };
    case 'ListProfiles': return { response: await client.listProfiles() };
    default: throw new Error(`unknown rpc ${JSON.stringify(job.rpc)}`);
  }
}

async function main() {
  const settings = options(process.argv);
  const client = new ScoringClient(settings.target, { protoDir: settings.protoDir, timeoutMs: settings.timeoutMs });
  const details = new DetailsDecoder(settings.googleapisDir);
  const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  for await (const line of lines) {
    if (!line.trim()) continue;
    let out;
    try {
      out = await answer(client, JSON.parse(line));
    } catch (error) {
      if (error.code === undefined || error.metadata === undefined) throw error; // not a refused call
      out = {
        error: { code: CODE_NAMES[error.code], message: error.details, fieldViolations: details.violations(error) },
      };
    }
    process.stdout.write(`${JSON.stringify(out)}\n`);
  }
  client.close();
}

main().catch((error) => {
  process.stderr.write(`shmj_node: ${error.message}\n`);
  process.exit(1);
});
