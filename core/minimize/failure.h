#pragma once
// What "fails" means for the minimizer, and the signature that says two failures are the same bug.
// A signature is kind + op + message class: a candidate graph counts only when it fails with the same
// signature as the original, so shrinking never drifts from one bug to another.
#include "replay/api/replay_types.h"

#include <string>
#include <vector>

namespace fxray::minimize {

struct FailureSpec {
    enum class Kind {
        Mismatch,  // a node's dtype / size / stride / device differs from the recorded one
        Error,     // an op raised (pattern: an ECMAScript regex the message must contain a match of)
        Nan,       // the first node whose outputs hold NaN/Inf while its inputs did not
        Diverge,   // graph outputs differ between the replay device and `pattern` (a device) beyond tolerance
        Command,   // `pattern` (a shell command) exits non-zero on the exported repro
        // "diverge:output_code": inductor's compiled code of the candidate (compiled in a Python child) differs
        // from fxray's checked replay of it (output_code_oracle.h)
        OutputCode,
        // "diverge:post_grad": inductor's post-grad graph of the candidate (its passes only, in the same Python child)
        // replayed by fxray differs from fxray's replay of the candidate (post_grad_oracle.h)
        PostGrad,
    };
    Kind kind;
    std::string pattern;
};

// "mismatch", "error", "error:REGEX", "nan", "diverge", "diverge:DEVICE" (default cpu), "diverge:output_code",
// "diverge:post_grad", "cmd:COMMAND";
// several joined by ',' ("mismatch,nan") when none but the last carries a pattern. Throws fxray::Error.
std::vector<FailureSpec> parseFailureSpecs(const std::string& text);
std::string describe(const FailureSpec& spec);

struct Signature {
    std::string kind;          // "mismatch:stride", "error", "nan", "inf", "diverge", "diverge:output_code",
                               // "diverge:post_grad", "cmd"
    std::string op;            // "aten.log.default"; empty for diverge / cmd; output_code: the first divergent
                               // kernel's node's op ("" when no kernel was named); post_grad: the first
                               // divergent node's op
    std::string messageClass;  // error: the message with numbers and quoted names blanked; cmd: "exit 3";
                               // output_code: kernel kind and size of the error ("cpp kernel, large error");
                               // post_grad: the size of the error ("large error")
    std::string node;          // where it was seen (not part of the identity)
    std::string detail;        // the full message, for people
    bool sameAs(const Signature& o) const { return kind == o.kind && op == o.op && messageClass == o.messageClass; }
    std::string str() const;   // "nan at aten.log.default" / "error at aten.mm.default: mat# and mat# ..."
};

// The failures of a replay that any of `specs` selects, in node order (Command specs are not replay-based and
// are skipped here).
std::vector<Signature> failuresIn(const replay::ReplayReport& report, const std::vector<FailureSpec>& specs);

// First line of an error, without LibTorch's "Exception raised from" trailer, numbers as '#', quoted text as '…':
// the same bug with other shapes or names has the same class.
std::string messageClass(const std::string& message);

}  // namespace fxray::minimize
