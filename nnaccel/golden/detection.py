"""Golden kernels: detection operations (spec: ../shared/spec/OperationType.aidl)."""
