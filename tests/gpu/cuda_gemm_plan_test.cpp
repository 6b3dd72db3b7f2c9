// GemmPlan's cuBLASLt descriptors against a fake cuBLASLt (CUDA builds; no GPU needed, the plan makes no CUDA runtime
// call): whichever create or set-attribute call fails, the plan throws naming that call and every descriptor created
// before it is destroyed; a plan that was made destroys all four when it goes.
#include "cuda_gemm.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <set>
#include <string>
#include <vector>

namespace fp8dash::gpu::detail {
namespace {

// The fake library's state: which handles are alive, and the call that is to fail (counted over every create and
// set-attribute call, from 1; 0: none fails).
struct FakeLt {
    std::set<std::uintptr_t> alive;
    std::uintptr_t next = 0x1000;
    int calls = 0;
    int failAt = 0;
    std::vector<cublasLtMatmulDescAttributes_t> attributes;  // set, in order
    std::vector<std::int32_t> scaleModes;                    // the values of A/B_SCALE_MODE
    std::vector<cudaDataType> layoutTypes;                   // of A, B, D
    bool fails() { return ++calls == failAt; }
    template <typename Handle>
    cublasStatus_t create(Handle* out) {
        if (fails()) return CUBLAS_STATUS_ALLOC_FAILED;
        *out = reinterpret_cast<Handle>(next);
        alive.insert(next);
        next += 0x10;
        return CUBLAS_STATUS_SUCCESS;
    }
    template <typename Handle>
    cublasStatus_t destroy(Handle h) {
        return alive.erase(reinterpret_cast<std::uintptr_t>(h)) ? CUBLAS_STATUS_SUCCESS : CUBLAS_STATUS_INVALID_VALUE;
    }
};

FakeLt fake;

CublasLtApi fakeApi() {
    CublasLtApi api;
    api.getStatusString = [](cublasStatus_t) -> const char* { return "FAKE_STATUS"; };
    api.matmulDescCreate = [](cublasLtMatmulDesc_t* d, cublasComputeType_t, cudaDataType_t) { return fake.create(d); };
    api.matmulDescDestroy = [](cublasLtMatmulDesc_t d) { return fake.destroy(d); };
    api.matmulDescSetAttribute = [](cublasLtMatmulDesc_t, cublasLtMatmulDescAttributes_t a, const void* v,
                                    size_t size) {
        fake.attributes.push_back(a);
        if ((a == CUBLASLT_MATMUL_DESC_A_SCALE_MODE || a == CUBLASLT_MATMUL_DESC_B_SCALE_MODE) && size == 4)
            fake.scaleModes.push_back(*static_cast<const std::int32_t*>(v));
        return fake.fails() ? CUBLAS_STATUS_INVALID_VALUE : CUBLAS_STATUS_SUCCESS;
    };
    api.matrixLayoutCreate = [](cublasLtMatrixLayout_t* l, cudaDataType type, uint64_t, uint64_t, int64_t) {
        fake.layoutTypes.push_back(type);
        return fake.create(l);
    };
    api.matrixLayoutDestroy = [](cublasLtMatrixLayout_t l) { return fake.destroy(l); };
    return api;
}

TEST(GemmPlanDescriptors, AFailedCallLeavesNoDescriptorBehind) {
    const CublasLtApi api = fakeApi();
    const GemmShape shape{"qkv", 8, 6144, 4096};
    // FP8: 1 desc create, 5 attributes (TRANSA, TRANSB, A/B scale pointers, FAST_ACCUM), 3 layouts = 9 calls.
    const char* expected[] = {"cublasLtMatmulDescCreate",
                              "TRANSA",
                              "TRANSB",
                              "A_SCALE_POINTER",
                              "B_SCALE_POINTER",
                              "FAST_ACCUM",
                              "cublasLtMatrixLayoutCreate(A)",
                              "cublasLtMatrixLayoutCreate(B)",
                              "cublasLtMatrixLayoutCreate(D)"};
    for (int failAt = 1; failAt <= 9; ++failAt) {
        fake = FakeLt{};
        fake.failAt = failAt;
        try {
            GemmPlan plan(api, nullptr, shape, GemmPrecision::Fp8E4m3, false, nullptr, nullptr);
            ADD_FAILURE() << "call " << failAt << " failed but the plan was made";
        } catch (const LtFailure& e) {
            EXPECT_NE(std::string(e.what()).find(expected[failAt - 1]), std::string::npos)
                << "call " << failAt << ": " << e.what();
            EXPECT_NE(std::string(e.what()).find("FAKE_STATUS"), std::string::npos) << e.what();
        }
        EXPECT_TRUE(fake.alive.empty()) << fake.alive.size() << " descriptors leaked when call " << failAt << " failed";
    }
}

TEST(GemmPlanDescriptors, APlanDestroysItsFourDescriptors) {
    const CublasLtApi api = fakeApi();
    fake = FakeLt{};
    {
        GemmPlan plan(api, nullptr, GemmShape{"o", 1, 4096, 4096}, GemmPrecision::Bf16, false, nullptr, nullptr);
        EXPECT_EQ(fake.alive.size(), 4u);  // the matmul descriptor and the A, B and D layouts
        EXPECT_EQ(fake.calls, 6);          // BF16: no scale pointers, no fast accumulation attribute
    }
    EXPECT_TRUE(fake.alive.empty());
}

// FP4 (issue 41): E2M1 operands with the block-scale mode of each format (cuBLASLt's LtNvfp4Matmul sample), the
// block-scale arrays as the A/B scale pointers, no FP8 fast-accumulation attribute; a BF16 output.
TEST(GemmPlanDescriptors, Fp4PlansSetTheBlockScaleModes) {
    const CublasLtApi api = fakeApi();
    struct Case {
        GemmPrecision precision;
        std::int32_t mode;
    };
    for (const Case c : {Case{GemmPrecision::Nvfp4, 1}, Case{GemmPrecision::Mxfp4, 2}}) {  // VEC16_UE4M3, VEC32_UE8M0
        fake = FakeLt{};
        {
            GemmPlan plan(api, nullptr, GemmShape{"o", 16, 4096, 4096}, c.precision, false, nullptr, nullptr);
            EXPECT_EQ(fake.alive.size(), 4u);
        }
        EXPECT_TRUE(fake.alive.empty());
        EXPECT_EQ(fake.scaleModes, (std::vector<std::int32_t>{c.mode, c.mode})) << gemmPrecisionName(c.precision);
        EXPECT_EQ(fake.attributes, (std::vector<cublasLtMatmulDescAttributes_t>{
                                       CUBLASLT_MATMUL_DESC_TRANSA, CUBLASLT_MATMUL_DESC_TRANSB,
                                       CUBLASLT_MATMUL_DESC_A_SCALE_MODE, CUBLASLT_MATMUL_DESC_B_SCALE_MODE,
                                       CUBLASLT_MATMUL_DESC_A_SCALE_POINTER, CUBLASLT_MATMUL_DESC_B_SCALE_POINTER}));
        // CUDA_R_4F_E2M1 is 33 and CUDA_R_16BF 14 in library_types.h.
        EXPECT_EQ(fake.layoutTypes, (std::vector<cudaDataType>{static_cast<cudaDataType>(33),
                                                               static_cast<cudaDataType>(33), CUDA_R_16BF}));
    }
}

}  // namespace
}  // namespace fp8dash::gpu::detail
