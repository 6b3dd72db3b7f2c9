// Format upgrades of the comparison file (comparison_migrations.h).
#include "fp8dash/core/comparison_migrations.h"

#include <functional>
#include <set>

#include "fp8dash/core/comparison_file.h"

namespace fp8dash {
namespace {

// 1 -> 2: note ids and the review section.
Status migrate1to2(Json& j, const std::string& src, std::vector<std::string>& log) {
    std::size_t assigned = 0;
    if (auto notes = j.find("notes"); notes != j.end() && notes->is_array()) {
        // Ids a version-1 file may already carry (a hand edit, a later build's file saved by 0.1) are kept if unique.
        std::set<std::string> used;
        for (const auto& n : *notes)
            if (n.is_object())
                if (auto id = n.find("id"); id != n.end() && id->is_string()) used.insert(id->get<std::string>());
        std::size_t k = 0;
        for (auto& n : *notes) {
            ++k;
            if (!n.is_object()) continue;  // the reader reports it, naming the element
            if (auto id = n.find("id"); id != n.end() && id->is_string()) continue;
            std::string id = "n" + std::to_string(k);
            for (std::size_t extra = 1; used.count(id); ++extra)
                id = "n" + std::to_string(k) + "-" + std::to_string(extra);
            used.insert(id);
            n["id"] = id;
            ++assigned;
        }
    } else if (notes != j.end() && !notes->is_null()) {
        return Error{src + ": field notes must be a list"};
    }
    if (!j.contains("review")) j["review"] = {{"decisions", Json::array()}};
    j["version"] = 2;
    log.push_back("version 1 -> 2: " + std::to_string(assigned) + " note id" + (assigned == 1 ? "" : "s") +
                  " assigned, review section added");
    return success();
}

// Version 3 adds the "variants" section (several candidates); a version-2 file has one candidate and reads as it is.
Status migrate2to3(Json& j, const std::string&, std::vector<std::string>& log) {
    j["version"] = 3;
    log.push_back("version 2 -> 3: one candidate (version 3 adds the variants section for several)");
    return success();
}

// Version 4 adds the optional "serving" section; a version-3 file has none and reads as it is. Not logged: a file
// without serving evidence is still written as version 3 (kComparisonVersionWithoutServing), so nothing was upgraded.
Status migrate3to4(Json& j, const std::string&, std::vector<std::string>&) {
    j["version"] = 4;
    return success();
}

using Step = std::function<Status(Json&, const std::string&, std::vector<std::string>&)>;

// steps[k] upgrades version k + 1 to k + 2.
const std::vector<Step>& steps() {
    static const std::vector<Step> all = {migrate1to2, migrate2to3, migrate3to4};
    static_assert(kComparisonVersion == 4, "a new format version needs its migration step here");
    return all;
}

}  // namespace

Status migrateComparisonJson(Json& j, int fromVersion, const std::string& src, std::vector<std::string>* applied) {
    if (!j.is_object()) return Error{src + ": not an fp8dash comparison file (expected a JSON object)"};
    if (fromVersion < 1 || fromVersion > kComparisonVersion)
        return Error{src + ": no migration from comparison format version " + std::to_string(fromVersion)};
    std::vector<std::string> log;
    for (int v = fromVersion; v < kComparisonVersion; ++v) {
        if (auto s = steps()[static_cast<std::size_t>(v - 1)](j, src, log); !s) return s;
    }
    if (applied) applied->insert(applied->end(), log.begin(), log.end());
    return success();
}

}  // namespace fp8dash
