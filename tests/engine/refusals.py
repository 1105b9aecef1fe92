"""The engine's tests of refused input: the :class:`~ruleslab.InputError` a call raises."""

from collections.abc import Callable

import pytest

from ruleslab import InputError


def refusal(call: Callable[..., object], *args: object, **kwargs: object) -> InputError:
    """The :class:`~ruleslab.InputError` that ``call(*args, **kwargs)`` raises; the test
    fails if it raises none. Its ``field`` and ``message`` are the test's to check."""
    with pytest.raises(InputError) as err:
        call(*args, **kwargs)
    return err.value
