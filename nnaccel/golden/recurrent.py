"""Golden kernels: recurrent operations (spec: ../shared/spec/OperationType.aidl)."""
