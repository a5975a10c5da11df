#include "io/dump_provenance.h"

#include "base/json.h"

#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>

namespace fxray::io {

namespace {

std::string_view release(std::string_view v)
{
    return v.substr(0, v.find('+'));
}

}  // namespace

std::string torchVersionFromNodeMeta(std::string_view nodeMetaText)
{
    try {
        const json::Value doc = json::parse(nodeMetaText);
        if (!doc.isObject())
            return {};
        const json::Value& torch = doc["torch"];  // null when absent
        if (torch.isObject() && torch["version"].isString())
            return torch["version"].asString();
    } catch (const std::exception&) {  // a broken sidecar is reported by the module hierarchy's parser
    }
    return {};
}

namespace {

std::string nodeMetaText(const std::string& graphDir)
{
    const std::filesystem::path sidecar = std::filesystem::path(graphDir) / "node_meta.json";
    std::error_code ec;
    if (!std::filesystem::is_regular_file(sidecar, ec))
        return {};
    std::ifstream in(sidecar, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

}  // namespace

std::string torchVersionOfDump(const std::string& graphDir)
{
    return torchVersionFromNodeMeta(nodeMetaText(graphDir));
}

std::string torchVersionOfLog(const std::string& logPath)
{
    static std::mutex mutex;
    static std::map<std::string, std::string> cache;
    const std::lock_guard<std::mutex> lock(mutex);
    if (auto it = cache.find(logPath); it != cache.end())
        return it->second;
    std::string version;
    std::ifstream in(logPath, std::ios::binary);
    constexpr std::string_view kKey = "\"pytorch_version\": \"";
    for (std::string line; version.empty() && std::getline(in, line);)
        if (const auto at = line.find(kKey); at != std::string::npos) {
            const auto from = at + kKey.size();
            if (const auto to = line.find('"', from); to != std::string::npos)
                version = line.substr(from, to - from);
        }
    cache[logPath] = version;
    return version;
}

std::string writtenByTorch(const GraphEntry& entry)
{
    if (entry.format == SourceFormat::SeedDump)
        return torchVersionOfDump(entry.path);
    if (entry.format == SourceFormat::TraceLog)
        return torchVersionOfLog(entry.path);
    return {};
}

std::map<std::string, std::string> opSchemasOfDump(const std::string& graphDir)
{
    std::map<std::string, std::string> out;
    const std::string text = nodeMetaText(graphDir);
    if (text.empty())
        return out;
    try {
        const json::Value doc = json::parse(text);
        if (!doc.isObject())
            return out;
        const json::Value& schemas = doc["schemas"];
        if (schemas.isObject())
            for (const auto& [op, schema] : schemas.asObject())
                if (schema.isString())
                    out[op] = schema.asString();
    } catch (const std::exception&) {  // reported where the sidecar is parsed for the module hierarchy
    }
    return out;
}

std::string torchVersionWarning(std::string_view graph, std::string_view written, std::string_view replaying)
{
    if (written.empty() || replaying.empty() || release(written) == release(replaying))
        return {};
    return std::string(graph) + " was written by torch " + std::string(written) + "; this fxray replays with LibTorch " +
           std::string(replaying) + ": ops whose schemas changed between them may fail or differ (fxray --version)";
}

}  // namespace fxray::io
