#include "graph/dtensor_layout.h"

#include "base/error.h"

#include <algorithm>
#include <cctype>
#include <numeric>

namespace fxray::graph {
namespace {

std::string trim(std::string s)
{
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())))
        s.erase(s.begin());
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())))
        s.pop_back();
    return s;
}

// "2, 3" / "2," -> {2, 3}; nullopt on anything else.
std::optional<std::vector<std::int64_t>> intList(const std::string& text)
{
    std::vector<std::int64_t> out;
    std::size_t pos = 0;
    while (pos < text.size()) {
        std::size_t comma = text.find(',', pos);
        if (comma == std::string::npos)
            comma = text.size();
        const std::string item = trim(text.substr(pos, comma - pos));
        pos = comma + 1;
        if (item.empty())
            continue;
        if (!std::all_of(item.begin(), item.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }) ||
            item.size() > 9)
            return std::nullopt;
        out.push_back(std::stoll(item));
    }
    return out;
}

std::string joinInts(const std::vector<std::int64_t>& v)
{
    std::string s;
    for (std::size_t k = 0; k < v.size(); ++k)
        s += (k ? "," : "") + std::to_string(v[k]);
    return s;
}

}  // namespace

std::int64_t DeviceMeshInfo::size() const
{
    return std::accumulate(shape.begin(), shape.end(), std::int64_t{1}, std::multiplies<>());
}

std::optional<DeviceMeshInfo> parseDeviceMesh(const std::string& text)
{
    static const std::string kHead = "DeviceMesh((";
    if (text.rfind(kHead, 0) != 0)
        return std::nullopt;
    const std::size_t shapeEnd = text.find(')', kHead.size());
    const std::size_t quote = text.find('\'', shapeEnd == std::string::npos ? text.size() : shapeEnd);
    const std::size_t quoteEnd = quote == std::string::npos ? std::string::npos : text.find('\'', quote + 1);
    const std::size_t strideAt = text.find("stride=(", shapeEnd == std::string::npos ? text.size() : shapeEnd);
    const std::size_t strideEnd = strideAt == std::string::npos ? std::string::npos : text.find(')', strideAt);
    if (shapeEnd == std::string::npos || quoteEnd == std::string::npos || strideEnd == std::string::npos)
        return std::nullopt;
    DeviceMeshInfo m;
    // "(dp=2, tp=2)" with names, "(2, 2)" without.
    std::string sizes;
    const std::string inner = text.substr(kHead.size(), shapeEnd - kHead.size());
    std::size_t pos = 0;
    while (pos <= inner.size()) {
        std::size_t comma = inner.find(',', pos);
        if (comma == std::string::npos)
            comma = inner.size();
        std::string item = trim(inner.substr(pos, comma - pos));
        pos = comma + 1;
        if (item.empty())
            continue;
        if (const auto eq = item.find('='); eq != std::string::npos) {
            m.dimNames.push_back(trim(item.substr(0, eq)));
            item = trim(item.substr(eq + 1));
        }
        sizes += item + ",";
    }
    auto shape = intList(sizes);
    auto stride = intList(text.substr(strideAt + 8, strideEnd - strideAt - 8));
    if (!shape || !stride || shape->empty() || shape->size() != stride->size() ||
        (!m.dimNames.empty() && m.dimNames.size() != shape->size()))
        return std::nullopt;
    m.shape = *shape;
    m.stride = *stride;
    m.deviceType = text.substr(quote + 1, quoteEnd - quote - 1);
    m.text = text.substr(0, strideEnd + 2);
    return m;
}

std::vector<DeviceMeshInfo> findDeviceMeshes(const std::string& text)
{
    std::vector<DeviceMeshInfo> out;
    for (std::size_t at = text.find("DeviceMesh(("); at != std::string::npos; at = text.find("DeviceMesh((", at + 1)) {
        const std::size_t end = text.find("))", text.find("stride=(", at));
        if (end == std::string::npos)
            break;
        if (auto m = parseDeviceMesh(text.substr(at, end + 2 - at)); m && std::find(out.begin(), out.end(), *m) == out.end())
            out.push_back(std::move(*m));
    }
    return out;
}

DeviceMeshInfo flatMesh(std::int64_t world)
{
    DeviceMeshInfo m;
    m.shape = {world};
    m.stride = {1};
    m.text = "DeviceMesh((" + std::to_string(world) + ",), stride=(1,))";
    return m;
}

std::optional<std::vector<std::int64_t>> meshCoordinate(const DeviceMeshInfo& mesh, std::int64_t rank)
{
    if (rank < 0 || rank >= mesh.size())
        return std::nullopt;
    std::vector<std::int64_t> coord(mesh.shape.size());
    std::int64_t back = 0;
    for (std::size_t i = 0; i < mesh.shape.size(); ++i) {
        coord[i] = mesh.stride[i] > 0 ? (rank / mesh.stride[i]) % mesh.shape[i] : 0;
        back += coord[i] * mesh.stride[i];
    }
    if (back != rank)  // strides that do not describe a dense layout of 0..size-1
        return std::nullopt;
    return coord;
}

std::vector<std::vector<int>> meshDimGroups(const DeviceMeshInfo& mesh, std::size_t dim)
{
    std::vector<std::vector<int>> groups;
    if (dim >= mesh.shape.size())
        return groups;
    // The other dimensions' coordinates, row-major (the last one fastest), as DeviceMesh's layout walks them.
    std::int64_t combos = 1;
    for (std::size_t i = 0; i < mesh.shape.size(); ++i)
        combos *= i == dim ? 1 : mesh.shape[i];
    for (std::int64_t k = 0; k < combos; ++k) {
        std::vector<std::int64_t> other(mesh.shape.size(), 0);
        std::int64_t rest = k;
        for (std::size_t i = mesh.shape.size(); i-- > 0;) {
            if (i == dim)
                continue;
            other[i] = rest % mesh.shape[i];
            rest /= mesh.shape[i];
        }
        std::vector<int> g;
        for (std::int64_t c = 0; c < mesh.shape[dim]; ++c) {
            std::int64_t rank = 0;
            for (std::size_t i = 0; i < mesh.shape.size(); ++i)
                rank += (i == dim ? c : other[i]) * mesh.stride[i];
            g.push_back(static_cast<int>(rank));
        }
        groups.push_back(std::move(g));
    }
    return groups;
}

std::vector<Placement> parsePlacements(const std::string& text)
{
    std::vector<Placement> out;
    std::size_t pos = 0;
    auto bad = [&](const std::string& why) { throw Error("placements '" + text + "': " + why); };
    auto paren = [&](std::size_t open) {
        const std::size_t close = text.find(')', open);
        if (open >= text.size() || text[open] != '(' || close == std::string::npos)
            bad("expected '(...)' at offset " + std::to_string(open));
        return close;
    };
    while (pos < text.size()) {
        Placement p;
        const std::size_t start = pos;
        if (text[pos] == 'R') {
            p.kind = Placement::Kind::Replicate;
            ++pos;
        } else if (text.compare(pos, 3, "_S(") == 0) {
            p.kind = Placement::Kind::StridedShard;
            const std::size_t close = paren(pos + 2);
            p.dim = std::atoi(text.c_str() + pos + 3);
            pos = close + 1;
        } else if (text[pos] == 'S') {
            p.kind = Placement::Kind::Shard;
            const std::size_t close = paren(pos + 1);
            const auto dim = intList(text.substr(pos + 2, close - pos - 2));
            if (!dim || dim->size() != 1)
                bad("a shard names one tensor dimension");
            p.dim = static_cast<int>((*dim)[0]);
            pos = close + 1;
        } else if (text[pos] == 'P') {
            p.kind = Placement::Kind::Partial;
            p.reduceOp = "sum";
            ++pos;
            if (pos < text.size() && text[pos] == '(') {
                const std::size_t close = paren(pos);
                p.reduceOp = text.substr(pos + 1, close - pos - 1);
                pos = close + 1;
            }
        } else if (text.compare(pos, 6, "MaskP(") == 0) {
            p.kind = Placement::Kind::Other;
            pos = paren(pos + 5) + 1;
        } else {
            bad("unknown placement at offset " + std::to_string(pos));
        }
        if (pos < text.size() && text[pos] == '[') {  // "S(1)[k]": the k-th cut of that tensor dimension
            const std::size_t close = text.find(']', pos);
            if (close == std::string::npos)
                bad("unclosed '['");
            const auto k = intList(text.substr(pos + 1, close - pos - 1));
            if (!k || k->size() != 1)
                bad("a cut order is one integer");
            p.order = static_cast<int>((*k)[0]);
            pos = close + 1;
        }
        p.text = text.substr(start, pos - start);
        out.push_back(std::move(p));
    }
    if (out.empty())
        bad("no placement");
    return out;
}

std::string ShardCut::str() const
{
    return placements + "@" + joinInts(meshShape) + "@" + joinInts(coord);
}

ShardCut ShardCut::parse(const std::string& text)
{
    const std::size_t a = text.find('@');
    const std::size_t b = a == std::string::npos ? a : text.find('@', a + 1);
    if (b == std::string::npos)
        throw Error("shard cut '" + text + "': expected PLACEMENTS@MESH@COORD");
    ShardCut c;
    c.placements = text.substr(0, a);
    auto mesh = intList(text.substr(a + 1, b - a - 1));
    auto coord = intList(text.substr(b + 1));
    if (!mesh || !coord || mesh->size() != coord->size() || parsePlacements(c.placements).size() != mesh->size())
        throw Error("shard cut '" + text + "': one placement, mesh size and coordinate per mesh dimension");
    for (std::size_t i = 0; i < mesh->size(); ++i)
        if ((*coord)[i] >= (*mesh)[i])
            throw Error("shard cut '" + text + "': coordinate outside the mesh");
    c.meshShape = *mesh;
    c.coord = *coord;
    return c;
}

bool ShardCut::partial() const
{
    for (const Placement& p : parsePlacements(placements))
        if (p.kind == Placement::Kind::Partial)
            return true;
    return false;
}

DerivedGroups groupsFromMeshes(const std::map<std::string, std::set<int>>& users, const std::vector<DeviceMeshInfo>& meshes,
                               int world)
{
    DerivedGroups out;
    // Every sub-group the meshes make, and torch's counter names for them: new_group numbers the groups it makes
    // after the world group "0"; a mesh dimension that spans the whole world reuses "0".
    std::vector<std::vector<int>> candidates;
    std::map<std::string, std::vector<int>> numbered;
    int counter = 1;
    for (const DeviceMeshInfo& m : meshes) {
        if (m.size() != world)
            continue;
        for (std::size_t d = 0; d < m.shape.size(); ++d) {
            auto groups = meshDimGroups(m, d);
            for (auto& g : groups) {
                std::sort(g.begin(), g.end());
                candidates.push_back(g);
                if (static_cast<int>(g.size()) != world)
                    numbered[std::to_string(counter++)] = g;
            }
        }
    }
    if (candidates.empty())
        return out;
    for (const auto& [name, ranks] : users) {
        if (name == "0" || ranks.empty())
            continue;
        std::vector<const std::vector<int>*> holding;
        for (const auto& g : candidates)
            if (std::includes(g.begin(), g.end(), ranks.begin(), ranks.end()) && static_cast<int>(g.size()) != world &&
                std::find_if(holding.begin(), holding.end(), [&](const auto* h) { return *h == g; }) == holding.end())
                holding.push_back(&g);
        // The users name the group when exactly one sub-group holds them all and every member calls it.
        if (holding.size() == 1 && holding.front()->size() == ranks.size()) {
            out.groups[name] = *holding.front();
            out.notes.push_back("group '" + name + "': the mesh's sub-group of the ranks that call it");
            continue;
        }
        if (auto it = numbered.find(name); it != numbered.end() &&
            std::includes(it->second.begin(), it->second.end(), ranks.begin(), ranks.end())) {
            out.groups[name] = it->second;
            out.notes.push_back("group '" + name + "': sub-group " + name + " in the order DeviceMesh makes them (torch's "
                                "new_group numbering)");
            continue;
        }
        out.notes.push_back("group '" + name + "': no sub-group of the recorded mesh matches the ranks that call it");
    }
    return out;
}

}  // namespace fxray::graph
