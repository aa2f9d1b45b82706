"""The exception types of nnaccel.

Every rejection of a model, a program or a run raises one of these, with a message that is a whole
sentence naming the thing and the rule it broke. The CLI maps them to exit statuses:
:class:`ModelError`, :class:`InputError` and :class:`ExecutionError` give 2,
:class:`NotImplementedOpError` gives 3.
"""


class NnaccelError(Exception):
    """Base class of every error nnaccel raises on purpose."""


class InputError(NnaccelError):
    """A file, argument or input array that cannot be used (bad JSON, wrong shape, missing name)."""


class ModelError(NnaccelError):
    """A model that breaks a rule of the NNAPI specification (found by validation)."""


class ExecutionError(NnaccelError):
    """A valid model whose execution fails as the spec says it must (bad run-time index, loop
    timeout, ...)."""


class BudgetError(NnaccelError):
    """A run on an accelerator backend that did not finish within its cycle budget (a hang, or a
    budget set below the run's length)."""


class NotImplementedOpError(NnaccelError):
    """A valid model using an operation or type combination that nnaccel does not implement yet."""
