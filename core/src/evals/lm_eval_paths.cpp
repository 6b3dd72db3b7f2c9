// lm-eval output folders and task paths; the rules are in lm_eval_paths.h.
#include "fp8dash/core/lm_eval_paths.h"

#include "fp8dash/core/lm_eval_results.h"
#include "fp8dash/core/sample_logs.h"

#include <algorithm>
#include <map>

namespace fp8dash {
namespace fs = std::filesystem;

namespace {

// The results files of one folder, by stem: "results" for results_<date>.json (and, as before, any
// results_*.json), the output path's stem for <stem>_<date>.json. Each stem keeps its newest file: date ids
// (YYYY-MM-DDTHH-MM-SS[.ffffff]) sort chronologically as text, so the newest is the greatest name.
struct FolderResults {
    std::map<std::string, fs::path> newestByStem;
    std::optional<fs::path> plain;  // results.json (lm-eval 0.4.0-0.4.2)
};

FolderResults resultsFilesIn(const fs::path& dir) {
    FolderResults out;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir, ec)) {
        std::error_code fec;
        if (!e.is_regular_file(fec)) continue;
        const auto name = e.path().filename().string();
        if (!name.ends_with(".json")) continue;
        if (name == "results.json") {
            out.plain = e.path();
            continue;
        }
        std::string stem;
        if (name.starts_with("results_")) {
            stem = "results";
        } else {
            const std::string date = dateIdOfFileName(name);
            if (date.empty()) continue;
            stem = name.substr(0, name.size() - 5 - date.size() - 1);  // "<stem>_<date>.json"
            if (stem.empty()) continue;
        }
        auto [it, fresh] = out.newestByStem.try_emplace(stem, e.path());
        if (!fresh && name > it->second.filename().string()) it->second = e.path();
    }
    return out;
}

// The file to read in a folder: the newest of its one stem; a plain results.json only when there is no dated file.
// Files of several stems are several runs (two --output_path X.json values, or results_<date>.json beside
// X_<date>.json), so the folder is refused with each run's newest file named rather than one picked by date.
Result<std::optional<fs::path>> pickResultsFile(const fs::path& dir) {
    FolderResults found = resultsFilesIn(dir);
    if (found.newestByStem.size() > 1) {
        std::string runs;
        for (const auto& [stem, file] : found.newestByStem)
            runs += (runs.empty() ? "" : ", ") + stem + "_<date>.json (newest: " + file.filename().string() + ")";
        return Error{dir.string() + ": holds the results of several lm-eval runs: " + runs +
                     "; pass the file to compare (lm-eval writes <stem>_<date>.json for --output_path "
                     "<stem>.json, and results_<date>.json in a model folder)"};
    }
    if (!found.newestByStem.empty()) return std::optional<fs::path>(found.newestByStem.begin()->second);
    return found.plain;
}

}  // namespace

std::string_view taskLeafName(std::string_view task) {
    const auto cut = task.rfind("::");
    return cut == std::string_view::npos ? task : task.substr(cut + 2);
}

std::string taskNameUnder(std::string_view task, std::string_view parent) {
    if (!parent.empty() && task.size() > parent.size() + 2 && task.starts_with(parent) &&
        task.substr(parent.size(), 2) == "::")
        return std::string(task.substr(parent.size() + 2));
    return std::string(task);
}

Result<LmEvalResults> readLmEvalPath(const fs::path& path) {
    std::error_code ec;
    if (!fs::exists(path, ec)) return Error{path.string() + ": no such file or directory"};
    fs::path file = path;
    if (fs::is_directory(path, ec)) {
        auto picked = pickResultsFile(path);
        if (!picked) return picked.error();
        std::optional<fs::path> found = *picked;
        if (!found) {
            std::vector<fs::path> subdirs;
            for (const auto& e : fs::directory_iterator(path, ec)) {
                std::error_code dec;
                if (e.is_directory(dec)) subdirs.push_back(e.path());
            }
            if (subdirs.size() == 1) {
                auto inSub = pickResultsFile(subdirs.front());
                if (!inSub) return inSub.error();
                found = *inSub;
            } else if (subdirs.size() > 1) {
                std::string names;
                std::sort(subdirs.begin(), subdirs.end());
                for (const auto& s : subdirs) names += (names.empty() ? "" : ", ") + s.filename().string();
                return Error{path.string() + ": holds no results file but several model folders (" + names +
                             "); pass the one to compare"};
            }
        }
        if (!found)
            return Error{path.string() +
                         ": no lm-eval results file (results_<date>.json, <stem>_<date>.json or results.json) in "
                         "it or in a single model sub-folder"};
        file = *found;
    }
    auto text = readTextFile(file);
    if (!text) return text.error();
    return parseLmEvalText(*text, file.string());
}

}  // namespace fp8dash
