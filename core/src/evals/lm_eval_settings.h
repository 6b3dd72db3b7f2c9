#pragma once
// Reading and writing back the settings of an lm-eval run that the comparability check needs (comparability.h).
// Where lm-eval writes each one (EleutherAI/lm-evaluation-harness): versions, n-shot, configs, n-samples and config
// come from evaluator.py (`simple_evaluate` fills config: limit, gen_kwargs, the four seeds, batch_size); task_hashes
// and the chat-template fields from loggers/evaluation_tracker.py (v0.4.3+: chat_template is the template the model
// applied with --apply_chat_template, null without it, and chat_template_sha its hash); max_length from
// loggers/utils.py `add_tokenizer_info`. v0.3 files have versions and config.num_fewshot only.

#include "fp8dash/core/lm_eval_results.h"

namespace fp8dash {

// Fills each task's `settings` and the run's `runSettings` from a results document.
void readRunSettings(const Json& doc, LmEvalResults& run);

// Adds them back to an lm-eval-format object made by LmEvalResults::toJson (versions, task_hashes, configs, the
// config keys and the top-level ones), so that reading that object gives the same settings.
void writeRunSettings(const LmEvalResults& run, Json& out);

}  // namespace fp8dash
