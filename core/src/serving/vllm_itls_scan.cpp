// The `itls` scanner of the vLLM bench reader (vllm_itls_scan.h; vllm_bench_reader.cpp says why it exists).
#include "serving/vllm_itls_scan.h"

#include <array>
#include <cctype>
#include <charconv>
#include <cstring>
#include <string_view>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace fp8dash::detail {

[[noreturn]] void vllmFail(std::string message) {
    throw VllmReadFailure{std::move(message)};
}

namespace {

// The `itls` list of lists, read from its raw text by a scanner of its own: 25M chunk gaps in a 100k-request file,
// where simdjson's per-value iteration and correctly rounded number parsing cost 3x the rest of the read. Only each
// request's sum and count of gaps are needed, so a gap is never turned into a double on the common path: a gap is
// almost always "0.<digits>" (Python's repr of a value in [1e-4, 1)), and such decimals are summed digit column by
// digit column (column j holds the digits worth 10^-j), exactly, with AVX2 one gap per step (a 32-byte load, the
// digits masked to the gap's length and widened into 16-bit column counters); the columns become one double per
// request. That sum is the exact decimal sum rounded once: closer to the true sum than adding the gaps as doubles.
// Every other spelling (exponents, values of 1 s or more, NaN, whitespace between values) is read by the scalar
// scanner below and added as a double beside the columns.
[[gnu::always_inline]] inline const char* vllmSkipSpace(const char* p, const char* end) {
    while (p < end && (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t')) ++p;
    return p;
}

// Up to eight ASCII digits at p (SWAR, as simdjson and fast_float parse them): how many of the eight bytes are
// digits, and their value. Reads eight bytes: the caller leaves eight readable bytes after p.
[[gnu::always_inline]] inline int vllmDigitRun(const char* p, std::uint64_t& value) {
    std::uint64_t v = 0;
    std::memcpy(&v, p, 8);
    // A byte is a digit when its high nibble is 3 and adding 6 keeps it there.
    const std::uint64_t notDigit = ((v & 0xF0F0F0F0F0F0F0F0ull) ^ 0x3030303030303030ull) |
                                   (((v + 0x0606060606060606ull) & 0xF0F0F0F0F0F0F0F0ull) ^ 0x3030303030303030ull);
    const int n = notDigit == 0 ? 8 : __builtin_ctzll(notDigit) / 8;
    if (n == 0) {
        value = 0;
        return 0;
    }
    if (n < 8) v = (v << (8 * (8 - n))) | (0x3030303030303030ull >> (8 * n));  // '0's in front of the n digits
    v = (v & 0x0F0F0F0F0F0F0F0Full) * 2561 >> 8;
    v = (v & 0x00FF00FF00FF00FFull) * 6553601 >> 16;
    value = (v & 0x0000FFFF0000FFFFull) * 42949672960001ull >> 32;
    return n;
}

constexpr double kVllmNegPow10[] = {1e-0,  1e-1,  1e-2,  1e-3,  1e-4,  1e-5,  1e-6,  1e-7,  1e-8,  1e-9,  1e-10,
                                    1e-11, 1e-12, 1e-13, 1e-14, 1e-15, 1e-16, 1e-17, 1e-18, 1e-19, 1e-20, 1e-21,
                                    1e-22, 1e-23, 1e-24, 1e-25, 1e-26, 1e-27, 1e-28, 1e-29, 1e-30};

// One number of any JSON spelling at p: the digits eight at a time into a 64-bit mantissa times 10^-digits (within
// 2 ulps of the correctly rounded double, far below the float the per-request figures end in); anything else
// (exponents, NaN, more than 19 significant digits) goes to std::from_chars. Reads eight bytes past the digits: the
// caller gives it 32 readable bytes or uses vllmScanNumberSafe.
[[gnu::always_inline]] inline const char* vllmScanNumberFast(const char* p, const char* end, double& out) {
    static const std::uint64_t kScale[] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000};
    const char* start = p;
    const bool negative = *p == '-';
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
        for (std::uint64_t run = 0; digits <= 19 && end - p >= 8;) {
            const int n = vllmDigitRun(p, run);
            mantissa = mantissa * kScale[n] + run;
            digits += n;
            p += n;
            if (n < 8) break;
        }
        while (digits <= 19 && p < end && static_cast<unsigned>(*p - '0') < 10) {  // the text's last bytes
            mantissa = mantissa * 10 + static_cast<unsigned>(*p - '0');
            ++digits;
            ++p;
        }
        scale = static_cast<int>(p - fracStart);
        simple = p > fracStart;
    }
    simple = simple && digits <= 19 && scale <= 22 &&
             (p == end || (*p != 'e' && *p != 'E' && *p != '.' && static_cast<unsigned>(*p - '0') >= 10));
    if (simple) {
        const double x = static_cast<double>(mantissa) * kVllmNegPow10[scale];
        out = negative ? -x : x;
        return p;
    }
    double x = 0;
    const auto r = std::from_chars(start, end, x);
    if (r.ec != std::errc() && r.ec != std::errc::result_out_of_range) return nullptr;  // NaN, Infinity: read here
    out = x;
    return r.ptr;
}

// A request's gaps: column counts of the "0.<digits>" gaps (index j: the digits worth 10^-j) and the sum of the
// others.
struct VllmGapSum {
    std::array<std::uint64_t, 31> columns{};  // [1..30] used
    double other = 0;
    std::uint32_t count = 0;
    bool anyColumns = false;

    double total() const {
        if (!anyColumns) return other;
        double s = 0;
        for (int j = 30; j >= 1; --j) s += static_cast<double>(columns[j]) * kVllmNegPow10[j];
        return s + other;
    }
};

#if defined(__x86_64__)
// Byte j of kVllmKeep + 32 - len is 0xFF for j < len.
alignas(64) constexpr unsigned char kVllmKeep[64] = {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
                                                     0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
                                                     0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};

// Adds the 16-bit column counters into the request's columns and clears them. Lane j of a load is the digit worth
// 10^-(j-1).
__attribute__((target("avx2"), always_inline)) inline void vllmFlushColumns(__m256i& lo, __m256i& hi, VllmGapSum& sum) {
    alignas(32) std::uint16_t c[32];
    _mm256_store_si256(reinterpret_cast<__m256i*>(c), lo);
    _mm256_store_si256(reinterpret_cast<__m256i*>(c + 16), hi);
    for (int j = 2; j < 32; ++j) sum.columns[j - 1] += c[j];
    lo = hi = _mm256_setzero_si256();
}

// Gaps spelled "0.<digits>" (up to 29 digits) separated by json.dump's ", ", one per step, from p on while 32 bytes
// are readable. Returns where it stopped: after a gap (afterGap true; the byte there is not ", " before another gap of
// this shape) or at the start of a value it does not take (afterGap false).
__attribute__((target("avx2"))) const char* vllmGapRunAvx2(const char* p, const char* end, VllmGapSum& sum,
                                                           bool& afterGap) {
    afterGap = false;
    const __m256i zeroChar = _mm256_set1_epi8('0'), nine = _mm256_set1_epi8(9);
    // Bytes 0 and 1 ("0.") carry no digit of the fraction.
    const __m256i fraction = _mm256_setr_epi8(0, 0, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
                                              -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1);
    __m256i lo = _mm256_setzero_si256(), hi = _mm256_setzero_si256();
    std::uint32_t sinceFlush = 0, taken = 0;
    while (end - p >= 32) {
        if (p[0] != '0' || p[1] != '.') break;
        const __m256i digits = _mm256_sub_epi8(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)), zeroChar);
        const __m256i isDigit = _mm256_cmpeq_epi8(_mm256_min_epu8(digits, nine), digits);
        const auto notDigit = ~static_cast<std::uint32_t>(_mm256_movemask_epi8(isDigit));
        const std::uint32_t fracNotDigit = notDigit >> 2;  // the '.' is bit 1
        if (fracNotDigit == 0) break;                      // 30 digits or more: the scalar reader takes it
        const int len = 2 + __builtin_ctz(fracNotDigit);
        const char terminator = p[len];
        if (len == 2 || terminator == 'e' || terminator == 'E') break;
        const __m256i keep =
            _mm256_and_si256(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(kVllmKeep + 32 - len)), fraction);
        const __m256i kept = _mm256_and_si256(digits, keep);
        lo = _mm256_add_epi16(lo, _mm256_cvtepu8_epi16(_mm256_castsi256_si128(kept)));
        hi = _mm256_add_epi16(hi, _mm256_cvtepu8_epi16(_mm256_extracti128_si256(kept, 1)));
        ++taken;
        if (++sinceFlush == 7000) {  // a 16-bit counter holds 7,281 nines
            vllmFlushColumns(lo, hi, sum);
            sinceFlush = 0;
        }
        p += len;
        if (terminator == ',' && p + 1 < end && p[1] == ' ') {
            p += 2;
            continue;
        }
        afterGap = true;
        break;
    }
    if (taken != 0) {
        vllmFlushColumns(lo, hi, sum);
        sum.count += taken;
        sum.anyColumns = true;
    }
    return p;
}

bool vllmHasAvx2() {
    static const bool has = __builtin_cpu_supports("avx2");
    return has;
}
#endif

bool gVllmScalarOnly = false;

}  // namespace

void vllmItlsScalarOnlyForTests(bool scalarOnly) {
    gVllmScalarOnly = scalarOnly;
}

const char* vllmScanItls(const char* p, const char* const end, std::vector<double>& sums,
                         std::vector<std::uint32_t>& counts, const std::string& where) {
#if defined(__x86_64__)
    const bool avx2 = !gVllmScalarOnly && vllmHasAvx2();
#endif
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
        VllmGapSum sum;
        if (p < end && *p == ']') {
            ++p;
        } else {
            for (;;) {
                bool afterGap = false;
#if defined(__x86_64__)
                if (avx2) p = vllmGapRunAvx2(p, end, sum, afterGap);
#endif
                if (!afterGap) {
                    double x = 0;
                    if (p == end) bad(request);
                    p = vllmScanNumberFast(p, end, x);
                    if (p == nullptr) bad(request);
                    sum.other += x;
                    ++sum.count;
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
        sums.push_back(sum.total());
        counts.push_back(sum.count);
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

// The `itls` lists of a big text read before simdjson sees it; the reader then hands simdjson a copy of the text with
// each list emptied ("[]"), so that stage 1 indexes 15 % of a --save-detailed file instead of 25M numbers and the
// On-Demand iterator has nothing to skip. A list is taken only at `"itls"` as an object key: the quote is preceded by
// ',' or '{' (inside a JSON string a quote is escaped) and followed by ':' and '['; the key's value is matched to its
// region by address when the record is read, so an `itls` anywhere else is read the ordinary way.
void vllmPrescanItls(const char* data, std::size_t size, std::vector<VllmItlsRegion>& regions,
                     const std::string& where) {
    static constexpr std::string_view kKey = "\"itls\"";
    const char* const end = data + size;
    const char* from = data;
    while (from < end) {
        const auto* hit =
            static_cast<const char*>(::memmem(from, static_cast<std::size_t>(end - from), kKey.data(), kKey.size()));
        if (hit == nullptr) return;
        from = hit + kKey.size();
        const char* before = hit;
        while (before > data && std::isspace(static_cast<unsigned char>(before[-1]))) --before;
        if (before == data || (before[-1] != ',' && before[-1] != '{')) continue;
        const char* colon = vllmSkipSpace(from, end);
        if (colon == end || *colon != ':') continue;
        const char* open = vllmSkipSpace(colon + 1, end);
        if (open == end || *open != '[') continue;
        VllmItlsRegion region;
        region.open = static_cast<std::size_t>(open - data);
        const char* after = vllmScanItls(open, end, region.sums, region.counts, where);
        region.close = static_cast<std::size_t>(after - data);
        regions.push_back(std::move(region));
        from = after;
    }
}

}  // namespace fp8dash::detail
