#include "commands.h"
#ifdef FXRAY_HAVE_REPLAY
#include "torch_commands.h"
#endif

namespace fxray::cli {

const std::vector<Command>& commands()
{
    static const std::vector<Command> kCommands{
        {"info", "list every graph found under a path, with inputs, op histogram and identical groups",
         "fxray info <path> [--json]", &runInfo},
        {"dot", "write a graph as DOT, or render it to SVG/PNG/PDF through Graphviz",
         "fxray dot <graph> -o out.{dot,svg,png,pdf} [--no-meta]", &runDot},
        {"show", "print a graph as annotated readable code (--code: module.py form; --outline: its module hierarchy, folds ×N)",
         "fxray show <graph> [--code | --outline [--json] [--depth N]]",
         &runShow},
        {"diff", "match two graphs node by node (renames and reordering are not differences) and report what differs",
         "fxray diff <graph A> <graph B> [--json] [--no-meta] [-o diff.{txt,json,dot,svg,png,pdf}]", &runDiff},
#ifdef FXRAY_HAVE_REPLAY
        {"replay", "run graphs through LibTorch with every node's dtype/size/stride checked against the dump",
         "fxray replay <graph|path> [--device cpu|cuda|cuda:N] [--seed N] [--inputs random|saved] [--floats normal|uniform] "
         "[--int-range LO,HI] [--sym-default N] [--stop-on-first] [--no-values]\n"
         "                   [--compare-device DEV | --expected OUT.pt|auto] [--repeat N [--warmup N] [--interpreted-repeats]]\n"
         "                   [--cuda-graph] [--all-nodes]   (--repeat on CUDA replays the checked pass as a captured CUDA graph when\n"
         "                   it can, its checks captured with it; --interpreted-repeats: the interpreter every time)\n"
         "                   [--json] [--in-process] [--timeout S] [--no-chain]   (each graph runs in an `fxray worker` child\n"
         "                   unless --in-process; a backward graph takes its saved activations from its forward unless --no-chain)\n"
         "                   [--rng natural|aligned] [--strict-nonfinite]   (NaN/Inf no output holds is transient, a pass, unless\n"
         "                   --strict-nonfinite; --rng aligned draws the k-th random call from its own stream, as stage compare does)",
         &runReplayModule},
        {"compare", "replay the stages of one compile (dynamo, AOT forward, inductor post-grad) on the same inputs; find where they diverge",
         "fxray compare <trace log>#<frame>/<compile> | <log or folder> [--device cpu|cuda|cuda:N] [--seed N] [--runnable] "
         "[--json] [-o OUT.json]\n"
         "                   [--floats normal|uniform] [--int-range LO,HI] [--sym-default N] [--timeout S] [--in-process]   "
         "(exit 0 all agree, 1 divergence or a failed stage)",
         &runCompareModule},
        {"worker", "the replay process behind the GUI and minimize (JSON lines on stdin/stdout; not for people)",
         "fxray worker", &runWorkerModule},
#endif
        {"minimize", "shrink a failing graph to the smallest graph that fails the same way; write it and a repro.py",
         "fxray minimize <graph> --until mismatch|error[:REGEX]|nan|diverge[:DEVICE]|cmd:'COMMAND' -o DIR [--device D] "
         "[--seed N]\n"
         "                   [--floats normal|uniform] [--int-range LO,HI] [--sym-default N] [--timeout S] "
         "[--split-statement] [--json]",
         &runMinimize},
        {"report", "the compile report of TORCH_TRACE logs: compiles, graph breaks, recompiles, failures, times, cache",
         "fxray report <trace log or directory> [--json] [--verbose] [--code]   (exit 1 when a compile failed)", &runReport},
    };
    return kCommands;
}

}  // namespace fxray::cli
