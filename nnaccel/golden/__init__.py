"""The NumPy golden model: one module per operation family plus the graph interpreter.

The family modules attach their kernels to the registry entries with
:func:`nnaccel.registry.define`; :func:`nnaccel.registry.load_all` imports them.
"""
