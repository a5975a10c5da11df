#pragma once
// The replay worker's wire format: one JSON object per line, both ways.
//   worker -> client, once at start:  {"ready": true, "cuda_devices": N}
//   client -> worker:                 {"id": 7, "graph": {...}, "options": {...}}
//   worker -> client, per node:       {"id": 7, "node": index, "total": N, "result": {...}}  (as soon as known)
//   worker -> client, at the end:     {"id": 7, "report": {...}}  (report_format.h's JSON)
//                                  or {"id": 7, "error": "file:line: message"}
//   A seed sweep (replay/api/seed_sweep.h):  {"id": 7, "graph": ..., "options": ..., "sweep": {"first": 0, "last": 999, ...}}
//     worker -> client, before each seed: {"id": 7, "seed": 41, "done": 41, "total": 1000}
//     worker -> client, at the end:       {"id": 7, "sweep": {"found": true, "seed": 41, ..., "report": {...}}}
//   A report may carry "restart": true: the worker's device is unusable (a device-side assert poisons the
//   CUDA context) and it exits after answering; the client starts a new one for the next request.
// A graph travels as its annotated readable text (print_readable form: every node's recorded metadata and
// source comments survive the round trip) plus its input specs, or as {"address": "..."} alone, which the
// worker loads itself.
#include "base/json.h"
#include "io/graph_source.h"
#include "replay/api/replay_types.h"

namespace fxray::worker {

json::Value graphToJson(const io::LoadedGraph& g);
// Throws fxray::Error when the text does not parse (or the address does not load).
io::LoadedGraph graphFromJson(const json::Value& j);

json::Value optionsToJson(const replay::ReplayOptions& o);
replay::ReplayOptions optionsFromJson(const json::Value& j);

}  // namespace fxray::worker
