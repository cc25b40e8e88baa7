// A Node.js client of ScoringService: @grpc/grpc-js with @grpc/proto-loader, and the
// google.rpc.BadRequest details of a refused request decoded with protobufjs.
'use strict';

const path = require('path');
const grpc = require('@grpc/grpc-js');
const protoLoader = require('@grpc/proto-loader');
const protobuf = require('protobufjs');

// keepCase: field names stay as the .proto spells them (winning_tile, seat_deltas), as API.md
//   and every other language name them. Without it proto-loader expects lowerCamelCase keys
//   and silently drops snake_case ones: {winning_tile: ...} would arrive as no winning tile.
// enums: String gives TILE_S7 rather than 25; either is accepted on input.
// defaults: true prints fields left at their default (seat 0, empty lists), as the JSON of
//   this service does; an unset message field (next_hand when no win is legal) is null.
// oneofs: true names the member a SettleBatchResult holds: result = 'response' or 'error'.
const LOADER_OPTIONS = {
  keepCase: true,
  enums: String,
  longs: String,
  defaults: true,
  oneofs: true,
};

const SERVICE_PROTO = 'mahjong/shanghai/v1/scoring_service.proto';
const DETAILS_KEY = 'grpc-status-details-bin';

// A ScoringService client constructor, from the directory that holds mahjong/shanghai/v1/.
function loadScoringService(protoDir) {
  const definition = protoLoader.loadSync(SERVICE_PROTO, { ...LOADER_OPTIONS, includeDirs: [protoDir] });
  return grpc.loadPackageDefinition(definition).mahjong.shanghai.v1.ScoringService;
}

// Reads google.rpc.Status and BadRequest from the googleapis protos (google/rpc/*.proto:
// the googleapis repository, the googleapis-common-protos wheel or the google-proto-files
// npm package all ship them).
class DetailsDecoder {
  constructor(googleapisDir) {
    const root = new protobuf.Root();
    // google/protobuf/*.proto (Any, Duration) are built into protobufjs.
    root.resolvePath = (origin, target) =>
      target.startsWith('google/protobuf/') ? target : path.join(googleapisDir, target);
    root.loadSync(['google/rpc/status.proto', 'google/rpc/error_details.proto'], { keepCase: true });
    this.status = root.lookupType('google.rpc.Status');
    this.badRequest = root.lookupType('google.rpc.BadRequest');
  }

  // The field violations of a failed call: [{field, description}], empty when it has none.
  violations(error) {
    const found = [];
    for (const bytes of (error.metadata && error.metadata.get(DETAILS_KEY)) || []) {
      const status = this.status.decode(bytes);
      for (const detail of status.details) {
        if (detail.type_url === 'type.googleapis.com/google.rpc.BadRequest') {
          for (const v of this.badRequest.decode(detail.value).field_violations) {
            found.push({ field: v.field, description: v.description });
          }
        }
      }
    }
    return found;
  }
}

// Promise-returning calls with a deadline; a failure rejects with the grpc-js error.
class ScoringClient {
  constructor(target, { protoDir, credentials, timeoutMs = 10000 } = {}) {
    const Service = loadScoringService(protoDir);
    this.stub = new Service(target, credentials || grpc.credentials.createInsecure());
    this.timeoutMs = timeoutMs;
  }

  unary(method, request) {
    const deadline = new Date(Date.now() + this.timeoutMs);
    return new Promise((resolve, reject) => {
      this.stub[method](request, { deadline }, (error, response) => (error ? reject(error) : resolve(response)));
    });
  }

  settle(request) { return this.unary('Settle', request); }
  settleBatch(requests) { return this.unary('SettleBatch', { requests }); }
  checkWin(request) { return this.unary('CheckWin', request); }
  listWaits(request) { return this.unary('ListWaits', request); }
  getProfile(request) { return this.unary('GetProfile', request); }
  listProfiles() { return this.unary('ListProfiles', {}); }

  // One response per request, in order, over one bidirectional stream.
  settleStream(requests) {
    return new Promise((resolve, reject) => {
      const call = this.stub.SettleStream({ deadline: new Date(Date.now() + this.timeoutMs) });
      const responses = [];
      call.on('data', (response) => responses.push(response));
      call.on('error', reject);
      call.on('end', () => resolve(responses));
      for (const request of requests) call.write(request);
      call.end();
    });
  }

  close() { this.stub.close(); }
}

module.exports = { DetailsDecoder, LOADER_OPTIONS, ScoringClient, loadScoringService };
