#include "replay_args.h"

#include <charconv>

namespace fxray::cli {

replay::ReplayOptions parseReplayOptions(const ArgParser& p)
{
    replay::ReplayOptions o;
    o.device = p.value("--device").value_or("cpu");
    if (auto s = p.value("--seed")) {
        auto [ptr, ec] = std::from_chars(s->data(), s->data() + s->size(), o.seed);
        if (ec != std::errc() || ptr != s->data() + s->size())
            throw Error("--seed wants a non-negative integer, got '" + *s + "'");
    }
    const std::string inputs = p.value("--inputs").value_or("random");
    if (inputs != "random" && inputs != "saved")
        throw Error("--inputs is random or saved, got '" + inputs + "'");
    o.inputs = inputs == "saved" ? replay::ReplayOptions::Inputs::Saved : replay::ReplayOptions::Inputs::Random;
    const std::string floats = p.value("--floats").value_or("normal");
    if (floats != "normal" && floats != "uniform")
        throw Error("--floats is normal or uniform, got '" + floats + "'");
    o.floatDist = floats == "uniform" ? replay::ReplayOptions::FloatDist::Uniform : replay::ReplayOptions::FloatDist::Normal;
    if (auto r = p.value("--int-range")) {
        auto comma = r->find(',');
        try {
            if (comma == std::string::npos)
                throw Error("");
            o.intLow = std::stoll(r->substr(0, comma));
            o.intHigh = std::stoll(r->substr(comma + 1));
        } catch (const std::exception&) {
            throw Error("--int-range wants LO,HI, got '" + *r + "'");
        }
        if (o.intHigh <= o.intLow)
            throw Error("--int-range: HI must be above LO");
    }
    if (auto v = p.value("--sym-default")) {
        try {
            o.symbolDefault = std::stoll(*v);
        } catch (const std::exception&) {
            throw Error("--sym-default wants an integer, got '" + *v + "'");
        }
    }
    o.stopOnFirst = p.flag("--stop-on-first");
    o.compareDevice = p.value("--compare-device").value_or("");
    o.expectedOutputsPath = p.value("--expected").value_or("");
    if (!o.compareDevice.empty() && !o.expectedOutputsPath.empty())
        throw Error("--compare-device and --expected each name the reference: give one");
    auto count = [&](const char* name) {
        auto v = p.value(name);
        if (!v)
            return 0;
        try {
            int n = std::stoi(*v);
            if (n < 0)
                throw Error("");
            return n;
        } catch (const std::exception&) {
            throw Error(std::string(name) + " wants a count, got '" + *v + "'");
        }
    };
    o.repeat = count("--repeat");
    o.warmup = count("--warmup");
    o.valueChecks = !p.flag("--no-values");
    o.cudaGraph = p.flag("--cuda-graph");
    o.graphRepeats = !p.flag("--interpreted-repeats");
    o.chain = !p.flag("--no-chain");
    const std::string rng = p.value("--rng").value_or("natural");
    if (rng != "natural" && rng != "aligned")
        throw Error("--rng is natural or aligned, got '" + rng + "'");
    o.rng = rng == "aligned" ? replay::ReplayOptions::Rng::Aligned : replay::ReplayOptions::Rng::Natural;
    o.strictNonFinite = p.flag("--strict-nonfinite");
    return o;
}

}  // namespace fxray::cli
