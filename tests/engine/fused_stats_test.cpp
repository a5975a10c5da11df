// The one-pass output statistics (core/replay/values/fused_stats.h, stats_kernel.cu) against ATen's reductions, the
// numbers StatsBuffer wrote before it: NaN/Inf counts, min and max (NaN when any NaN), and the double sum, for every
// dtype, NaN, +-Inf, all-NaN, empty, dense and strided views, sizes of one and of many CUDA blocks or CPU chunks.
// A plain executable, not a QtTest: the CUDA machines build no Qt.
//   fused_stats_test          CPU: the loop, and StatsBuffer's rows through it (ctest: engine_fused_stats)
//   fused_stats_test --cuda   the kernel through StatsBuffer (one launch per batch, and every case in as few launches
//                             as the kernel takes; rows in mapped host memory unless
//                             FXRAY_STATS_MAPPED=0), inside a captured CUDA graph replayed on new values, and
//                             turned into NaN/Inf presence checks after its first replay; exits 77
//                             (skipped) without a CUDA device or without the kernel
#include "replay/values/device_stats.h"
#include "replay/values/fused_stats.h"

#include <ATen/ATen.h>
#include <torch/cuda.h>

#if __has_include(<ATen/cuda/CUDAGraph.h>)
#include <ATen/cuda/CUDAGraph.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#define HAVE_CUDA_GRAPHS 1
#endif

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <limits>
#include <string>
#include <vector>

using namespace fxray::replay::detail;

namespace {

int g_failures = 0, g_checks = 0;

struct Case {
    std::string name;
    at::Tensor t;  // on the CPU; the CUDA run moves it (a strided view stays one: see onDevice)
};

// ATen's numbers, as StatsBuffer's ATen path computes them (device_stats.cpp: queueAten).
StatsRow reference(const at::Tensor& raw)
{
    const at::Tensor t = c10::isBarebonesUnsignedType(raw.scalar_type()) || raw.scalar_type() == at::kBool
                             ? raw.to(at::kDouble)
                             : raw;
    StatsRow r;
    if (t.numel() == 0)
        return r;  // the one-pass rows of an empty tensor: all 0 (StatsBuffer never queues one)
    if (t.is_floating_point()) {
        r.nanCount = at::isnan(t).sum().item<double>();
        r.infCount = at::isinf(t).sum().item<double>();
    }
    auto [mn, mx] = at::aminmax(t);
    r.min = mn.to(at::kDouble).item<double>();
    r.max = mx.to(at::kDouble).item<double>();
    r.sum = at::sum(t, at::kDouble).item<double>();
    return r;
}

bool same(double a, double b, double tolerance)
{
    if (std::isnan(a) || std::isnan(b))
        return std::isnan(a) && std::isnan(b);
    if (std::isinf(a) || std::isinf(b))
        return a == b;
    return std::fabs(a - b) <= tolerance;
}

void check(const std::string& where, const Case& c, const StatsRow& got)
{
    const StatsRow want = reference(c.t.cpu());
    // The sum adds the same doubles in another order: within a few ulps of the sum of magnitudes.
    const double magnitude = c.t.numel() == 0 ? 0.0 : at::abs(c.t.cpu().to(at::kDouble)).nan_to_num(0, 0, 0).sum().item<double>();
    // StatsBuffer's CPU rows take the sum from ATen's own reduction: bit-equal to eager's (the mean users compare).
    const double sumTolerance = where.starts_with("cpu buffer") ? 0.0 : 1e-12 * std::max(1.0, magnitude);
    ++g_checks;
    const bool ok = same(got.nanCount, want.nanCount, 0) && same(got.infCount, want.infCount, 0) &&
                    same(got.min, want.min, 0) && same(got.max, want.max, 0) && same(got.sum, want.sum, sumTolerance);
    if (!ok) {
        ++g_failures;
        std::printf("FAIL %s %s (%s, numel %lld): nan %g/%g inf %g/%g min %.17g/%.17g max %.17g/%.17g sum %.17g/%.17g "
                    "(fused/ATen)\n",
                    where.c_str(), c.name.c_str(), std::string(c10::toString(c.t.scalar_type())).c_str(),
                    static_cast<long long>(c.t.numel()), got.nanCount, want.nanCount, got.infCount, want.infCount,
                    got.min, want.min, got.max, want.max, got.sum, want.sum);
    }
}

const std::vector<at::ScalarType> kFloating = {at::kFloat, at::kDouble, at::kHalf, at::kBFloat16};
const std::vector<at::ScalarType> kIntegral = {at::kChar,  at::kByte,   at::kShort,  at::kUInt16, at::kInt,
                                               at::kUInt32, at::kLong, at::kUInt64, at::kBool};

// Values in [-1000, 1000) for signed, [0, 2000) for unsigned, 0/1 for bool: every dtype holds them exactly enough.
at::Tensor values(at::IntArrayRef sizes, at::ScalarType dtype)
{
    at::Tensor v = at::randn(sizes, at::kDouble) * 300;
    if (dtype == at::kBool)
        return v > 0;
    if (!at::isFloatingType(dtype)) {
        const bool isUnsigned = dtype == at::kByte || c10::isBarebonesUnsignedType(dtype);
        v = (isUnsigned ? v.abs() : v).clamp(-1000, dtype == at::kByte ? 255 : 1000).floor();
        if (dtype == at::kChar)
            v = v.clamp(-128, 127);
    }
    return v.to(dtype);
}

std::vector<Case> cases()
{
    const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
    std::vector<Case> out;
    for (const at::ScalarType dt : kFloating) {
        const std::string d = c10::toString(dt);
        at::Tensor withNonFinite = values({3000}, dt);
        withNonFinite.index_put_({17}, nan);
        withNonFinite.index_put_({18}, inf);
        withNonFinite.index_put_({2999}, -inf);
        at::Tensor infOnly = values({64}, dt);
        infOnly.index_put_({0}, inf);
        infOnly.index_put_({1}, -inf);
        at::Tensor positiveInf = at::full({5}, inf, at::TensorOptions().dtype(dt));
        out.push_back({d + " finite", values({1000}, dt)});
        out.push_back({d + " nan and +-inf", withNonFinite});
        out.push_back({d + " +-inf, no nan", infOnly});
        out.push_back({d + " all +inf", positiveInf});
        out.push_back({d + " all nan", at::full({7, 3}, nan, at::TensorOptions().dtype(dt))});
        out.push_back({d + " one element", values({1}, dt)});
        out.push_back({d + " scalar", values({}, dt)});
    }
    for (const at::ScalarType dt : kIntegral) {
        out.push_back({std::string(c10::toString(dt)) + " values", values({2049}, dt)});
        out.push_back({std::string(c10::toString(dt)) + " one element", values({1}, dt)});
    }
    // Extremes the integer types hold: min/max compared as integers, not as doubles.
    out.push_back({"int64 extremes", at::tensor({std::numeric_limits<std::int64_t>::min(), std::int64_t{0},
                                                 std::numeric_limits<std::int64_t>::max()})});
    out.push_back({"uint8 extremes", at::tensor({0, 255, 7}, at::kByte)});
    // Many elements: several CUDA blocks (the last one merges), several CPU chunks (merged in chunk order).
    for (const at::ScalarType dt : {at::kFloat, at::kHalf, at::kLong}) {
        at::Tensor big = values({(1 << 20) + 3}, dt);
        if (at::isFloatingType(dt))
            big.index_put_({123457}, inf);
        out.push_back({std::string(c10::toString(dt)) + " 1M elements", big});
    }
    at::Tensor bigNan = values({300000}, at::kFloat);
    bigNan.index_put_({299999}, nan);
    out.push_back({"float 300k, nan in the last block", bigNan});
    // Layouts: dense in another order (read in memory order), strided views, broadcast (stride 0), many dimensions.
    const at::Tensor m = values({64, 48}, at::kFloat);
    out.push_back({"transposed (dense)", m.t()});
    out.push_back({"every other column", m.slice(1, 0, 48, 2)});
    out.push_back({"a column", m.select(1, 5)});
    out.push_back({"a block", m.slice(0, 3, 40).slice(1, 7, 30)});
    out.push_back({"expanded (stride 0)", values({1, 33}, at::kHalf).expand({40, 33})});
    out.push_back({"int32 strided", values({30, 20}, at::kInt).slice(0, 0, 30, 3)});
    out.push_back({"10 dimensions, strided", values({2, 2, 2, 2, 2, 2, 2, 2, 2, 4}, at::kFloat).slice(9, 0, 4, 2)});
    at::Tensor cube = values({3, 3, 3, 3, 3, 3, 3, 3, 3, 3}, at::kFloat);
    for (std::int64_t d = 0; d < 10; ++d)
        cube = cube.slice(d, 0, 3, 2);  // nothing merges: 10 strided dimensions (CUDA: ATen's path, kStatsMaxDims)
    out.push_back({"10 dimensions, none mergeable", cube});
    out.push_back({"big strided", values({1024, 1030}, at::kFloat).slice(1, 1, 1025)});
    out.push_back({"empty", at::empty({0, 4})});
    out.push_back({"empty int", at::empty({3, 0}, at::kInt)});
    return out;
}

// The presence kernel's NaN/Inf test on bits (statsBitsNonFinite), against std::isnan/isinf of the value, for every
// floating dtype's edge values: both zeros, the extremes, the smallest subnormal, both infinities, NaNs of either
// sign and payload (quiet and signalling). Host code: it runs in CI, not only on a GPU.
template <typename T, typename Bits, Bits kInfBits>
void checkBitsNonFinite(const std::string& dtype, const std::vector<Bits>& extraNanBits)
{
    std::vector<Bits> all = extraNanBits;
    for (const T v : {T(0), T(-0.0), T(1), T(-1), std::numeric_limits<T>::max(), std::numeric_limits<T>::lowest(),
                      std::numeric_limits<T>::denorm_min(), std::numeric_limits<T>::infinity(),
                      -std::numeric_limits<T>::infinity(), std::numeric_limits<T>::quiet_NaN(),
                      -std::numeric_limits<T>::quiet_NaN()}) {
        Bits b{};
        std::memcpy(&b, &v, sizeof(Bits));
        all.push_back(b);
    }
    for (const Bits b : all) {
        T v;
        std::memcpy(&v, &b, sizeof(Bits));
        const double d = static_cast<double>(v);
        bool nan = false, inf = false;
        statsBitsNonFinite<Bits, kInfBits>(b, nan, inf);
        ++g_checks;
        if (nan != std::isnan(d) || inf != std::isinf(d)) {
            ++g_failures;
            std::printf("FAIL bits %s 0x%llx (%g): nan %d inf %d\n", dtype.c_str(), static_cast<unsigned long long>(b), d,
                        nan, inf);
        }
    }
}

void checkBitsNonFiniteAll()
{
    checkBitsNonFinite<float, std::uint32_t, kStatsF32InfBits>("float32", {0x7f800001u, 0xffc00000u, 0x7fffffffu});
    checkBitsNonFinite<double, std::uint64_t, kStatsF64InfBits>("float64", {0x7ff0000000000001ull, 0xfff8000000000000ull});
    checkBitsNonFinite<c10::Half, std::uint16_t, kStatsF16InfBits>("float16", {0x7c01, 0xfe00, 0x7fff, 0x7bff});
    checkBitsNonFinite<c10::BFloat16, std::uint16_t, kStatsBF16InfBits>("bfloat16", {0x7f81, 0xffc0, 0x7fff, 0x7f7f});
}

// Each case's row through StatsBuffer on `device`, read back once, in queue order. `batched`: no flush but the read-back's
// and no growth, so that on CUDA every case goes into as few launches as the kernel takes (kStatsMaxJobs jobs, at most
// kStatsMaxStrided strided ones: the launches split there), small and multi-block jobs side by side in one grid.
void throughBuffer(const std::string& where, const std::vector<Case>& all,
                   const std::function<at::Tensor(const at::Tensor&)>& onDevice, bool batched = false)
{
    StatsBuffer buffer(batched ? 4096 : 16);  // small: the buffer grows (and flushes first) several times
    std::vector<const Case*> queued;
    std::size_t handled = 0;
    for (const Case& c : all) {
        if (!StatsBuffer::hasStats(c.t))
            continue;
        const at::Tensor t = onDevice(c.t);
        handled += fusedStatsHandle(t) ? 1 : 0;
        buffer.queue(t, queued.size());
        queued.push_back(&c);
        if (!batched && queued.size() % 3 == 0)
            buffer.flush();  // as after a node of three outputs
    }
    buffer.readBack([&](std::size_t tag, const StatsRow& row) { check(where, *queued[tag], row); });
    std::printf("%s: %zu tensors through StatsBuffer, %zu of them one-pass\n", where.c_str(), queued.size(), handled);
    if (handled + 1 < queued.size()) {  // only the 10-dimension cube may fall back (and on the CPU, none)
        ++g_failures;
        std::printf("FAIL %s: only %zu of %zu tensors took the one-pass statistics\n", where.c_str(), handled,
                    queued.size());
    }
}

// share(): a queue entry's row handed out again under another tag (the value checks queue the same tensor again for
// a getitem or a graph output), and the pool: the second round's StatsBuffer gets the first one's buffers, read back
// and zeroed, and its rows are right (an integer tensor in a row a float tensor held before).
void shareAndPool(const std::string& where, const std::function<at::Tensor(const at::Tensor&)>& onDevice)
{
    const double nan = std::numeric_limits<double>::quiet_NaN();
    for (int round = 0; round < 2; ++round) {
        StatsBuffer buffer(64, 4);
        at::Tensor f = values({300}, round == 0 ? at::kFloat : at::kLong);
        if (round == 0)
            f.index_put_({3}, nan);
        const at::Tensor g = values({50}, round == 0 ? at::kLong : at::kFloat);
        const std::vector<Case> want = {{"first", f}, {"second", g}, {"first again", f}};
        const std::size_t entry = buffer.queue(onDevice(f), 0);
        buffer.queue(onDevice(g), 1);
        buffer.share(2, entry);
        std::size_t seen = 0;
        buffer.readBack([&](std::size_t tag, const StatsRow& row) {
            check(where + " round " + std::to_string(round), want[tag], row);
            ++seen;
        });
        ++g_checks;
        if (seen != 3) {
            ++g_failures;
            std::printf("FAIL %s round %d: %zu rows read back, 3 queued\n", where.c_str(), round, seen);
        }
    }
}

// The same tensor on CUDA with the same geometry: its whole storage moved, then viewed with t's sizes, strides and
// offset (a contiguous copy would test the dense path only; copy_ into an expanded view would be refused).
at::Tensor moved(const at::Tensor& t, const c10::Device& device)
{
    if (t.numel() == 0 || t.is_contiguous())
        return t.to(device, false, true);
    const auto elements = static_cast<std::int64_t>(t.storage().nbytes()) / static_cast<std::int64_t>(t.element_size());
    const at::Tensor all = at::empty({0}, t.options()).set_(t.storage(), 0, {elements}, {1});
    at::Tensor out = all.to(device, false, true).as_strided(t.sizes(), t.strides(), t.storage_offset());
    if (!at::equal(out.cpu(), t) && !at::isFloatingType(t.scalar_type()))  // floats: NaN != NaN
        std::printf("note: %s did not move as it was\n", std::string(c10::toString(t.scalar_type())).c_str());
    return out;
}

void runCpu(const std::vector<Case>& all)
{
    checkBitsNonFiniteAll();
    for (const Case& c : all) {
        if (!fusedStatsHandle(c.t)) {
            ++g_failures;
            std::printf("FAIL cpu %s: not handled by the one-pass statistics\n", c.name.c_str());
            continue;
        }
        double row[5];
        fusedStatsCpu(c.t, row);
        check("cpu", c, StatsRow{row[0], row[1], row[2], row[3], row[4]});
    }
    throughBuffer("cpu buffer", all, [](const at::Tensor& t) { return t; });
    // The CUDA run's copies, made on the CPU: the same geometry rebuilt from a copy of the storage.
    throughBuffer("cpu buffer, rebuilt views", all, [](const at::Tensor& t) { return moved(t, at::kCPU); });
    shareAndPool("cpu buffer, shared rows", [](const at::Tensor& t) { return t; });
}

#ifdef HAVE_CUDA_GRAPHS
// The statistics captured into a CUDA graph: replays on new values rewrite the same rows, and the multi-block
// tickets reset themselves (a second replay reads right too).
void runCudaGraph()
{
    const double nan = std::numeric_limits<double>::quiet_NaN();
    at::Tensor small = at::randn({1000}, at::kCUDA), big = at::randn({1 << 20}, at::kCUDA);
    at::Tensor ints = at::randint(-50, 50, {4096}, at::TensorOptions().dtype(at::kLong).device(at::kCUDA));
    StatsBuffer buffer;
    buffer.reserveFixed(small.device(), 8);
    at::cuda::CUDAGraph graph;
    const c10::cuda::CUDAStream side = c10::cuda::getStreamFromPool();
    side.synchronize();
    {
        const c10::cuda::CUDAStreamGuard guard(side);
        graph.capture_begin();
        buffer.queue(small * 2, 0);  // a temporary of the capture's pool, as a node's output is
        buffer.queue(big, 1);
        buffer.queue(ints.slice(0, 0, 4096, 2), 2);
        buffer.flush();
        graph.capture_end();
    }
    for (int replay = 0; replay < 3; ++replay) {
        small.copy_(at::randn({1000}, at::kCUDA));
        big.copy_(at::randn({1 << 20}, at::kCUDA));
        if (replay == 1)
            big.index_put_({777777}, nan);
        ints.random_(-9, 9);
        graph.replay();
        const std::vector<Case> want = {{"graph small*2", (small * 2).cpu()},
                                        {"graph big", big.cpu()},
                                        {"graph ints strided", ints.slice(0, 0, 4096, 2).cpu()}};
        buffer.peek([&](std::size_t tag, const StatsRow& row) {
            check("cuda graph replay " + std::to_string(replay), want[tag], row);
        });
    }
}

// The statistics of every case captured into a CUDA graph, then turned into NaN/Inf presence checks after the first
// replay (StatsBuffer::presenceOnly, as a checked CUDA graph's later replays run): each replay's rows then say non-zero
// where the tensor holds NaN / Inf and 0 where not, on every dtype and layout; a NaN planted before one replay shows in
// that replay only (the host clears what it read); ATen's fallback rows (the 10-dimension cube) keep their counts.
void checkPresence(const std::string& where, const Case& c, const StatsRow& got)
{
    const StatsRow want = reference(c.t.cpu());
    ++g_checks;
    if ((got.nanCount != 0) != (want.nanCount != 0) || (got.infCount != 0) != (want.infCount != 0)) {
        ++g_failures;
        std::printf("FAIL %s %s (%s): presence nan %g inf %g, ATen counts nan %g inf %g\n", where.c_str(),
                    c.name.c_str(), std::string(c10::toString(c.t.scalar_type())).c_str(), got.nanCount, got.infCount,
                    want.nanCount, want.infCount);
    }
}

void runPresenceGraph(const std::vector<Case>& all)
{
    std::vector<Case> onDevice;
    for (const Case& c : all)
        if (StatsBuffer::hasStats(c.t))
            onDevice.push_back({c.name, moved(c.t, at::kCUDA)});
    at::Tensor planted = at::randn({5000}, at::kCUDA);  // clean, then a NaN before one replay only
    onDevice.push_back({"planted", planted});
    StatsBuffer buffer;
    buffer.reserveFixed(planted.device(), onDevice.size() + 4);
    at::cuda::CUDAGraph graph(/*keep_graph=*/true);
    const c10::cuda::CUDAStream side = c10::cuda::getStreamFromPool();
    side.synchronize();
    {
        const c10::cuda::CUDAStreamGuard guard(side);
        graph.capture_begin();
        for (std::size_t k = 0; k < onDevice.size(); ++k)
            buffer.queue(onDevice[k].t, k);
        buffer.flush();
        graph.capture_end();
    }
    graph.instantiate();
    auto replayAndCheck = [&](const std::string& where, bool presence) {
        graph.replay();
        c10::cuda::device_synchronize();
        buffer.peek([&](std::size_t tag, const StatsRow& row) {
            presence ? checkPresence(where, onDevice[tag], row) : check(where, onDevice[tag], row);
        });
    };
    replayAndCheck("presence graph, full first replay", false);
    StatsRow firstPlanted;  // what the full kernel wrote; the presence kernel never writes min, max or sum
    buffer.peek([&](std::size_t tag, const StatsRow& row) {
        if (tag + 1 == onDevice.size())
            firstPlanted = row;
    });
    const int switched = buffer.presenceOnly(graph.raw_cuda_graph(), graph.raw_cuda_graph_exec());
    ++g_checks;
    if (switched < 2 || !buffer.presence()) {  // 7 strided tensors, at most kStatsMaxStrided a launch: 2+, all turned
        ++g_failures;
        std::printf("FAIL presence graph: %d statistics launches turned\n", switched);
    }
    for (int replay = 0; replay < 3; ++replay) {
        if (replay == 1)
            planted.index_put_({4321}, std::numeric_limits<double>::quiet_NaN());
        if (replay == 2)
            planted.copy_(at::randn({5000}, at::kCUDA));
        replayAndCheck("presence graph replay " + std::to_string(replay), true);
    }
    // planted holds other values now: a full kernel still in the graph would have rewritten its sum.
    buffer.peek([&](std::size_t tag, const StatsRow& row) {
        if (tag + 1 != onDevice.size())
            return;
        ++g_checks;
        if (row.min != firstPlanted.min || row.max != firstPlanted.max || row.sum != firstPlanted.sum) {
            ++g_failures;
            std::printf("FAIL presence graph: planted's min/max/sum rewritten (sum %.17g, first replay %.17g)\n", row.sum,
                        firstPlanted.sum);
        }
    });
    std::printf("presence graph: %zu tensors, %d launches turned into presence checks\n", onDevice.size(), switched);
}
#endif

// Not a check: what one launch of the statistics costs, for issue 24's figures (a value-checked pass ends with one such
// launch; a checked CUDA graph holds one such kernel node). 50 jobs as a small graph's outputs are (49 of 4,096
// floats, one of 1M), each timing the median of 200: queue + launch + read-back (the tail a checked pass waits for),
// and the replay + sync of a CUDA graph holding that launch only, against one holding a single 4,096-float add.
void timeLaunches()
{
    std::vector<at::Tensor> outputs;
    for (int k = 0; k < 49; ++k)
        outputs.push_back(at::randn({32, 128}, at::kCUDA));
    outputs.push_back(at::randn({1 << 20}, at::kCUDA));
    const c10::cuda::CUDAStream stream = c10::cuda::getCurrentCUDAStream();
    auto median = [](std::vector<double> v) {
        std::sort(v.begin(), v.end());
        return v[v.size() / 2];
    };
    auto timed = [&](const std::function<void()>& once) {
        std::vector<double> us;
        for (int k = 0; k < 220; ++k) {
            const auto t0 = std::chrono::steady_clock::now();
            once();
            stream.synchronize();
            if (k >= 20)
                us.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count());
        }
        return median(us);
    };
    StatsBuffer eager(64);
    const double launchUs = timed([&] {
        for (std::size_t k = 0; k < outputs.size(); ++k)
            eager.queue(outputs[k], k);
        eager.readBack([](std::size_t, const StatsRow&) {});  // the launch, the sync, the rows zeroed: a pass's end
    });
    std::printf("note: statistics of 50 tensors, queued + one launch + read back: %.1f us (median of 200)\n", launchUs);
#ifdef HAVE_CUDA_GRAPHS
    StatsBuffer fixed;
    fixed.reserveFixed(outputs[0].device(), 64);
    at::Tensor x = at::randn({4096}, at::kCUDA);
    at::cuda::CUDAGraph statsGraph, addGraph;
    const c10::cuda::CUDAStream side = c10::cuda::getStreamFromPool();
    side.synchronize();
    {
        const c10::cuda::CUDAStreamGuard guard(side);
        statsGraph.capture_begin();
        for (std::size_t k = 0; k < outputs.size(); ++k)
            fixed.queue(outputs[k], k);
        fixed.flush();
        statsGraph.capture_end();
        addGraph.capture_begin();
        x.add_(1.0);
        addGraph.capture_end();
    }
    const double statsUs = timed([&] { statsGraph.replay(); });
    const double addUs = timed([&] { addGraph.replay(); });
    std::printf("note: CUDA graph replay + sync, the statistics launch of 50 tensors: %.1f us; one add kernel: %.1f us\n",
                statsUs, addUs);
#endif
}

int runCuda(const std::vector<Case>& all)
{
    if (!torch::cuda::is_available()) {
        std::printf("SKIP: no CUDA device\n");
        return 77;
    }
    if (!fusedStatsHaveCudaKernel()) {
        std::printf("SKIP: this build has no CUDA kernel (nvcc was not found at configure time)\n");
        return 77;
    }
    throughBuffer("cuda buffer", all, [](const at::Tensor& t) { return moved(t, at::kCUDA); });
    throughBuffer("cuda buffer, one batch", all, [](const at::Tensor& t) { return moved(t, at::kCUDA); }, true);
    shareAndPool("cuda buffer, shared rows", [](const at::Tensor& t) { return t.to(at::kCUDA); });
#ifdef HAVE_CUDA_GRAPHS
    runCudaGraph();
    runPresenceGraph(all);
#else
    std::printf("note: no ATen/cuda/CUDAGraph.h: the capture check did not run\n");
#endif
    timeLaunches();
    return 0;
}

}  // namespace

int main(int argc, char** argv)
{
    at::manual_seed(24);
    const bool cuda = argc > 1 && std::string(argv[1]) == "--cuda";
    const std::vector<Case> all = cases();
    if (cuda) {
        if (const int rc = runCuda(all); rc == 77)
            return rc;
    } else {
        runCpu(all);
    }
    std::printf("%s: %d checks, %d failures\n", cuda ? "cuda" : "cpu", g_checks, g_failures);
    return g_failures == 0 && g_checks > 0 ? 0 : 1;
}
