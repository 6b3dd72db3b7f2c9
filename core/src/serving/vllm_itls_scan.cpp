// The `itls` scanner of the vLLM bench reader (vllm_itls_scan.h; vllm_bench_reader.cpp says why it exists).
#include "serving/vllm_itls_scan.h"

#include <cctype>
#include <charconv>
#include <cstring>
#include <string_view>

namespace fp8dash::detail {

[[noreturn]] void vllmFail(std::string message) {
    throw VllmReadFailure{std::move(message)};
}

namespace {

// The `itls` list of lists, read from its raw text (array::raw_json) by a scanner of its own: 25M chunk gaps in a
// 100k-request file, where simdjson's per-value iteration and correctly rounded number parsing cost 3x the rest of
// the read. A gap is a decimal (Python's repr): its digits (eight at a time) go into a 64-bit mantissa, multiplied by
// 10^-digits (a multiply, not a divide: a divide's latency held every number up): within 2 ulps of the correctly
// rounded double, far below the float the per-request figures end in; anything else (exponents, NaN, more than 19
// significant digits) goes to std::from_chars.
[[gnu::always_inline]] inline const char* vllmSkipSpace(const char* p, const char* end) {
    while (p < end && (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t')) ++p;
    return p;
}

// Up to eight ASCII digits at p (SWAR, as simdjson and fast_float parse them): how many of the eight bytes are
// digits, and their value. Reads eight bytes: the caller leaves eight readable bytes after p (the text's padding).
[[gnu::always_inline]] inline int vllmDigitRun(const char* p, std::uint64_t& value) {
    std::uint64_t v = 0;
    std::memcpy(&v, p, 8);
    // A byte is a digit when its high nibble is 3 and adding 6 keeps it there.
    const std::uint64_t notDigit = ((v & 0xF0F0F0F0F0F0F0F0ull) ^ 0x3030303030303030ull) |
                                   (((v + 0x0606060606060606ull) & 0xF0F0F0F0F0F0F0F0ull) ^ 0x3030303030303030ull);
    const int n = notDigit == 0 ? 8 : __builtin_ctzll(notDigit) / 8;
    if (n == 0) return 0;
    if (n < 8) v = (v << (8 * (8 - n))) | (0x3030303030303030ull >> (8 * n));  // '0's in front of the n digits
    v = (v & 0x0F0F0F0F0F0F0F0Full) * 2561 >> 8;
    v = (v & 0x00FF00FF00FF00FFull) * 6553601 >> 16;
    value = (v & 0x0000FFFF0000FFFFull) * 42949672960001ull >> 32;
    return n;
}

[[gnu::always_inline]] inline const char* vllmScanNumber(const char* p, const char* end, double& out) {
    static const double kNegPow10[] = {1e-0,  1e-1,  1e-2,  1e-3,  1e-4,  1e-5,  1e-6,  1e-7,
                                       1e-8,  1e-9,  1e-10, 1e-11, 1e-12, 1e-13, 1e-14, 1e-15,
                                       1e-16, 1e-17, 1e-18, 1e-19, 1e-20, 1e-21, 1e-22};
    const char* start = p;
    const bool negative = p < end && *p == '-';
    if (negative) ++p;
    std::uint64_t mantissa = 0;
    int digits = 0, scale = 0;  // digits in the mantissa (leading zeros left out), digits after the point
    const char* intStart = p;
    while (p < end && static_cast<unsigned>(*p - '0') < 10) {
        mantissa = mantissa * 10 + static_cast<unsigned>(*p - '0');
        digits += mantissa != 0;
        ++p;
    }
    bool simple = p > intStart;
    if (simple && p < end && *p == '.') {
        ++p;
        const char* fracStart = p;
        if (mantissa == 0)
            while (p < end && *p == '0') ++p;
        static const std::uint64_t kScale[] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000};
        for (std::uint64_t run = 0; digits <= 19;) {
            const int n = vllmDigitRun(p, run);
            mantissa = mantissa * kScale[n] + run;
            digits += n;
            p += n;
            if (n < 8) break;
        }
        if (p > end) return nullptr;
        scale = static_cast<int>(p - fracStart);
        simple = p > fracStart;
    }
    simple = simple && digits <= 19 && scale <= 22 && (p == end || (*p != 'e' && *p != 'E'));
    if (simple) {
        const double x = static_cast<double>(mantissa) * kNegPow10[scale];
        out = negative ? -x : x;
        return p;
    }
    double x = 0;
    const auto r = std::from_chars(start, end, x);
    if (r.ec != std::errc() && r.ec != std::errc::result_out_of_range) return nullptr;
    out = x;
    return r.ptr;
}

// The common shape of a gap, "0.<digits>" with at most 19 significant digits, without a branch per digit: the
// leading zeros counted in one step, then up to three runs of eight digits. nullptr: not that shape (the general
// scanner reads it). Needs 32 readable bytes after p (the caller checks).
[[gnu::always_inline]] inline const char* vllmScanGap(const char* p, double& out) {
    static const std::uint64_t kScale[] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000};
    static const double kNegPow10[] = {1e-0,  1e-1,  1e-2,  1e-3,  1e-4,  1e-5,  1e-6,  1e-7,
                                       1e-8,  1e-9,  1e-10, 1e-11, 1e-12, 1e-13, 1e-14, 1e-15,
                                       1e-16, 1e-17, 1e-18, 1e-19, 1e-20, 1e-21, 1e-22};
    if (p[0] != '0' || p[1] != '.') return nullptr;
    const char* const frac = p + 2;
    std::uint64_t v = 0;
    std::memcpy(&v, frac, 8);
    const std::uint64_t zeros = v ^ 0x3030303030303030ull;
    if (zeros == 0) return nullptr;
    const char* q = frac + __builtin_ctzll(zeros) / 8;
    std::uint64_t run = 0, mantissa = 0;
    int n = vllmDigitRun(q, mantissa), digits = n;
    q += n;
    if (n == 8) {
        n = vllmDigitRun(q, run);
        mantissa = mantissa * kScale[n] + run;
        digits += n;
        q += n;
        if (n == 8) {
            n = vllmDigitRun(q, run);
            if (n > 3) return nullptr;
            mantissa = mantissa * kScale[n] + run;
            digits += n;
            q += n;
        }
    }
    const long scale = q - frac;
    if (digits == 0 || scale > 22 || *q == 'e' || *q == 'E') return nullptr;
    out = static_cast<double>(mantissa) * kNegPow10[scale];
    return q;
}

// Returns the byte after the list's closing bracket.
}  // namespace

const char* vllmScanItls(const char* p, const char* const end, std::vector<double>& sums,
                         std::vector<std::uint32_t>& counts, const std::string& where) {
    const auto bad = [&](std::size_t request) {
        vllmFail(where + ": itls[" + std::to_string(request) + "] is not a list of numbers (chunk gaps in seconds)");
    };
    p = vllmSkipSpace(p, end);
    if (p == end || *p != '[') vllmFail(where + ": \"itls\" is not a list");
    p = vllmSkipSpace(p + 1, end);
    std::size_t request = 0;
    if (p < end && *p == ']') return p + 1;
    for (;;) {
        if (p == end || *p != '[') bad(request);
        p = vllmSkipSpace(p + 1, end);
        double sum = 0;
        std::uint32_t n = 0;
        if (p < end && *p == ']') {
            ++p;
        } else {
            for (;;) {
                double x = 0;
                const char* next = end - p >= 32 ? vllmScanGap(p, x) : nullptr;
                p = next != nullptr ? next : vllmScanNumber(p, end, x);
                if (p == nullptr) bad(request);
                sum += x;
                ++n;
                if (p[0] == ',' && p[1] == ' ' && p + 2 < end && static_cast<unsigned>(p[2] - '0') < 10) {
                    p += 2;  // ", " then the next gap: json.dump's separator
                    continue;
                }
                p = vllmSkipSpace(p, end);
                if (p < end && *p == ',') {
                    p = vllmSkipSpace(p + 1, end);
                    continue;
                }
                if (p < end && *p == ']') {
                    ++p;
                    break;
                }
                bad(request);
            }
        }
        sums.push_back(sum);
        counts.push_back(n);
        ++request;
        p = vllmSkipSpace(p, end);
        if (p < end && *p == ',') {
            p = vllmSkipSpace(p + 1, end);
            continue;
        }
        if (p < end && *p == ']') return p + 1;
        bad(request);
    }
}

// The `itls` lists of a big file read before simdjson indexes the text, and blanked (spaces between the brackets):
// simdjson's stage 1 then runs over whitespace instead of 25M numbers and the On-Demand iterator has nothing to skip
// over, which halves the read. A list is taken only at `"itls"` as an object key: the quote is preceded by ',' or '{'
// (inside a JSON string a quote is escaped) and followed by ':' and '['; the key's value is matched to its region by
// address when the record is read, so an `itls` anywhere else is read the ordinary way.

void vllmPrescanItls(char* data, std::size_t size, std::vector<VllmItlsRegion>& regions, const std::string& where) {
    static constexpr std::string_view kKey = "\"itls\"";
    const char* const end = data + size;
    char* from = data;
    while (from < end) {
        auto* hit = static_cast<char*>(::memmem(from, static_cast<std::size_t>(end - from), kKey.data(), kKey.size()));
        if (hit == nullptr) return;
        from = hit + kKey.size();
        const char* before = hit;
        while (before > data && std::isspace(static_cast<unsigned char>(before[-1]))) --before;
        if (before == data || (before[-1] != ',' && before[-1] != '{')) continue;
        const char* colon = vllmSkipSpace(from, end);
        if (colon == end || *colon != ':') continue;
        char* open = const_cast<char*>(vllmSkipSpace(colon + 1, end));
        if (open == end || *open != '[') continue;
        VllmItlsRegion region;
        region.start = open;
        const char* after = vllmScanItls(open, end, region.sums, region.counts, where);
        std::memset(open + 1, ' ', static_cast<std::size_t>(after - 1 - (open + 1)));
        regions.push_back(std::move(region));
        from = const_cast<char*>(after);
    }
}

}  // namespace fp8dash::detail
