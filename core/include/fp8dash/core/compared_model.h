#pragma once
// The model a comparison is about, as the Capacity and Local benchmarks tabs need it: the checkpoint its runs name
// (lm-eval's model_name or pretrained=) and, where fp8dash knows it, its architecture: from the config.json of a
// checkpoint that is a local folder, else from the table of presets by the checkpoint's base name
// (findModelPresetForCheckpoint). And whether the model a saved capacity plan or benchmark run used is that model.
// Plain data; the functions are thread-safe (comparedModelOf reads a local config.json when the runs name a folder).

#include <optional>
#include <string>

#include "fp8dash/core/model_architecture.h"

namespace fp8dash {

struct ComparisonDocument;

struct ComparedModel {
    std::string checkpoint;  // the baseline run's model ("Qwen/Qwen3.5-27B"); empty when the runs name none
    std::optional<ModelArchitecture> architecture;  // absent when fp8dash does not know the model
    // How CapacitySettings::model and LocalBenchOptions::model name it: the preset's name, or the config.json path;
    // empty when unknown.
    std::string settingsModel;

    bool named() const { return !checkpoint.empty(); }
    bool known() const { return architecture.has_value(); }
};

// The baseline run's checkpoint (the candidate's when the baseline names none) and its architecture when known.
ComparedModel comparedModelOf(const ComparisonDocument& doc);
ComparedModel comparedModelFor(const std::string& checkpoint);

// How a model chosen for a plan or a run (a preset name or a config.json path, as CapacitySettings::model) relates to
// the compared model.
enum class ModelMatch {
    NoComparedModel,  // the runs name no model: nothing to compare with
    Same,             // the compared model itself
    SameShapes,       // another name with the same architecture: every figure is the same
    Different,        // another model: its figures are not the compared model's
    Unchecked,        // a config.json whose model cannot be told from the compared one (the compared model is unknown)
};
ModelMatch modelMatch(const std::string& chosenModel, const ComparedModel& compared);

}  // namespace fp8dash
