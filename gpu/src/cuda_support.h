#pragma once
// Internal to fp8dash_gpu (CUDA builds only): the CUDA and cuBLASLt errors as exceptions, and an owner (RAII) for every
// CUDA and cuBLASLt object the benchmarks create: device buffers, streams, events, mapped host memory, cuBLASLt
// handles, matmul descriptors, matrix layouts and preferences. Destructors ignore errors: after a failure there is
// nothing better to do. Each owner is created by a checked call, so a constructor that throws leaves nothing behind.

#include "cuda_cublaslt.h"

#include <cuda_runtime_api.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <utility>

namespace fp8dash::gpu::detail {

using Clock = std::chrono::steady_clock;

inline double secondsSince(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
}

// "1.00 GiB", "32.0 MiB", "512 bytes".
std::string sizeText(std::uint64_t bytes);

// ---------------------------------------------------------------------------------------------------------------
// Errors

class CudaFailure : public std::runtime_error {
public:
    CudaFailure(const std::string& what, cudaError_t code) : std::runtime_error(what), m_code(code) {}
    cudaError_t code() const { return m_code; }

private:
    cudaError_t m_code;
};

class LtFailure : public std::runtime_error {
public:
    LtFailure(const std::string& what, cublasStatus_t status) : std::runtime_error(what), m_status(status) {}
    cublasStatus_t status() const { return m_status; }

private:
    cublasStatus_t m_status;
};

std::string cudaText(cudaError_t e);
// Throws CudaFailure / LtFailure naming `what` when the call failed.
void check(cudaError_t e, const char* what);
void checkLt(const CublasLtApi& lt, cublasStatus_t status, const char* what);

// ---------------------------------------------------------------------------------------------------------------
// Owners

class DeviceBuffer {
public:
    DeviceBuffer() = default;
    DeviceBuffer(std::size_t bytes, const std::string& what) : m_bytes(bytes) {
        if (bytes == 0) return;
        if (const cudaError_t e = cudaMalloc(&m_ptr, bytes); e != cudaSuccess) {
            m_ptr = nullptr;
            cudaGetLastError();  // out of memory is not sticky; clear it so later calls are not blamed
            throw CudaFailure("cudaMalloc of " + sizeText(bytes) + " for " + what + " failed: " + cudaText(e), e);
        }
    }
    ~DeviceBuffer() { reset(); }
    DeviceBuffer(DeviceBuffer&& other) noexcept
        : m_ptr(std::exchange(other.m_ptr, nullptr)), m_bytes(std::exchange(other.m_bytes, 0)) {}
    DeviceBuffer& operator=(DeviceBuffer&& other) noexcept {
        if (this != &other) {
            reset();
            m_ptr = std::exchange(other.m_ptr, nullptr);
            m_bytes = std::exchange(other.m_bytes, 0);
        }
        return *this;
    }
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;

    void reset() {
        if (m_ptr) cudaFree(m_ptr);
        m_ptr = nullptr;
        m_bytes = 0;
    }
    void* get() const { return m_ptr; }
    template <typename T>
    T* as() const {
        return static_cast<T*>(m_ptr);
    }
    std::size_t bytes() const { return m_bytes; }

private:
    void* m_ptr = nullptr;
    std::size_t m_bytes = 0;
};

class Stream {
public:
    Stream() { check(cudaStreamCreateWithFlags(&m_stream, cudaStreamNonBlocking), "cudaStreamCreateWithFlags"); }
    ~Stream() { cudaStreamDestroy(m_stream); }
    Stream(const Stream&) = delete;
    Stream& operator=(const Stream&) = delete;
    cudaStream_t get() const { return m_stream; }

private:
    cudaStream_t m_stream = nullptr;
};

class Event {
public:
    Event() { check(cudaEventCreate(&m_event), "cudaEventCreate"); }
    ~Event() { cudaEventDestroy(m_event); }
    Event(const Event&) = delete;
    Event& operator=(const Event&) = delete;
    cudaEvent_t get() const { return m_event; }

private:
    cudaEvent_t m_event = nullptr;
};

// Host memory the device reads and writes directly (the blocking kernel's flag, the clock stamps).
template <typename T>
class MappedHost {
public:
    MappedHost() {
        void* host = nullptr;
        check(cudaHostAlloc(&host, sizeof(T), cudaHostAllocMapped), "cudaHostAlloc (mapped)");
        m_host = static_cast<T*>(host);
        std::memset(static_cast<void*>(m_host), 0, sizeof(T));
        void* device = nullptr;
        if (const cudaError_t e = cudaHostGetDevicePointer(&device, host, 0); e != cudaSuccess) {
            cudaFreeHost(host);
            throw CudaFailure("cudaHostGetDevicePointer failed: " + cudaText(e), e);
        }
        m_device = static_cast<T*>(device);
    }
    ~MappedHost() { cudaFreeHost(m_host); }
    MappedHost(const MappedHost&) = delete;
    MappedHost& operator=(const MappedHost&) = delete;
    T* host() const { return m_host; }
    T* device() const { return m_device; }

private:
    T* m_host = nullptr;
    T* m_device = nullptr;
};

class LtHandle {
public:
    explicit LtHandle(const CublasLtApi& lt) : m_lt(lt) { checkLt(lt, lt.create(&m_handle), "cublasLtCreate"); }
    ~LtHandle() { m_lt.destroy(m_handle); }
    LtHandle(const LtHandle&) = delete;
    LtHandle& operator=(const LtHandle&) = delete;
    cublasLtHandle_t get() const { return m_handle; }

private:
    const CublasLtApi& m_lt;
    cublasLtHandle_t m_handle = nullptr;
};

// One cuBLASLt descriptor of type Handle, destroyed by the API's `destroy` member. Created by a checked call, so a
// plan whose third descriptor fails to be created still destroys the first two (each is its own owner).
template <typename Handle, cublasStatus_t (*CublasLtApi::*Destroy)(Handle)>
class LtObject {
public:
    explicit LtObject(const CublasLtApi& lt) : m_lt(lt) {}
    ~LtObject() {
        if (m_handle) (m_lt.*Destroy)(m_handle);
    }
    LtObject(const LtObject&) = delete;
    LtObject& operator=(const LtObject&) = delete;
    Handle get() const { return m_handle; }
    Handle* out() { return &m_handle; }  // for the create call; only while empty

private:
    const CublasLtApi& m_lt;
    Handle m_handle = nullptr;
};

using LtMatmulDesc = LtObject<cublasLtMatmulDesc_t, &CublasLtApi::matmulDescDestroy>;
using LtMatrixLayout = LtObject<cublasLtMatrixLayout_t, &CublasLtApi::matrixLayoutDestroy>;
using LtPreference = LtObject<cublasLtMatmulPreference_t, &CublasLtApi::preferenceDestroy>;

}  // namespace fp8dash::gpu::detail
