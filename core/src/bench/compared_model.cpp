// The compared model of a comparison and how a plan's or a run's model relates to it (compared_model.h).
#include "fp8dash/core/compared_model.h"

#include <filesystem>
#include <system_error>

#include "fp8dash/core/comparison_file.h"

namespace fp8dash {

ComparedModel comparedModelFor(const std::string& checkpoint) {
    ComparedModel c;
    c.checkpoint = checkpoint;
    if (checkpoint.empty()) return c;
    // A checkpoint that is a folder on this machine carries its own config.json: the surest source.
    std::error_code ec;
    const std::filesystem::path folder(checkpoint);
    if (folder.is_absolute() && std::filesystem::is_regular_file(folder / "config.json", ec)) {
        const std::filesystem::path config = folder / "config.json";
        if (auto m = readHfConfig(config)) {
            c.architecture = std::move(m).value();
            c.settingsModel = config.string();
            return c;
        }
    }
    if (const ModelArchitecture* p = findModelPresetForCheckpoint(checkpoint)) {
        c.architecture = *p;
        c.settingsModel = p->name;
    }
    return c;
}

ComparedModel comparedModelOf(const ComparisonDocument& doc) {
    if (!doc.hasEvals) return {};
    const std::string& baseline = doc.baseline.results.modelName;
    return comparedModelFor(baseline.empty() ? doc.candidate.results.modelName : baseline);
}

ModelMatch modelMatch(const std::string& chosenModel, const ComparedModel& compared) {
    if (!compared.named()) return ModelMatch::NoComparedModel;
    if (chosenModel.empty()) return ModelMatch::Different;
    if (compared.known() && chosenModel == compared.settingsModel) return ModelMatch::Same;
    if (const ModelArchitecture* p = findModelPreset(chosenModel)) {
        if (!compared.known()) return ModelMatch::Different;  // the table's models are known; the compared one is not
        if (p->name == compared.settingsModel) return ModelMatch::Same;
        return sameShapes(*p, *compared.architecture) ? ModelMatch::SameShapes : ModelMatch::Different;
    }
    // A config.json: the folder it lies in often names the model ("…/Qwen3.5-27B/config.json").
    const std::filesystem::path path(chosenModel);
    const std::string folder = path.has_parent_path() ? path.parent_path().filename().string() : std::string();
    if (!folder.empty() && baseModelName(folder) == baseModelName(compared.checkpoint)) return ModelMatch::Same;
    if (!compared.known()) return ModelMatch::Unchecked;
    auto m = readHfConfig(path);
    if (!m) return ModelMatch::Different;
    return sameShapes(*m, *compared.architecture) ? ModelMatch::SameShapes : ModelMatch::Different;
}

}  // namespace fp8dash
