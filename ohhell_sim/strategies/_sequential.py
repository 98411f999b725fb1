"""Sequential sampling for the Monte Carlo choices: stop once the choice is settled.

A Monte Carlo player scores every option (a card, a bid) on the same sampled
deals.  Most choices are clear after a few samples, and a few stay close; with a
fixed number of samples the clear ones waste time and the close ones get too
little.  Sampling sequentially, in batches, a player stops once no option left
could beat the leading one by more than ``eps`` points in expectation, and
drops the options already far behind it, so that the samples go where the
choice is close.  This is the expected-opportunity-cost stopping rule of
ranking and selection in simulation optimisation, with the paired (common
random numbers) differences of the options' scores.

:func:`choice_is_open` is the test, :func:`time_to_test` says when to apply it
(every :data:`BATCH` samples from :data:`FIRST_TEST` on).
"""

from __future__ import annotations

import math

from numba import njit

#: Samples drawn between two tests.
BATCH = 8
#: Samples drawn before the first test: a spread read off fewer is too rough.
FIRST_TEST = 2 * BATCH
#: Prior variance (points squared) added to the spread of each paired difference.
#: Without it, two options that scored alike on the first samples would count as
#: surely equal, when a rare deal on which they differ has simply not come up.
PRIOR_VARIANCE = 1.0

_SQRT2 = math.sqrt(2.0)
_SQRT2PI = math.sqrt(2.0 * math.pi)


@njit
def time_to_test(j, eps):
    """Whether a sequential choice tests its stopping rule before drawing sample ``j``."""
    return eps > 0.0 and j >= FIRST_TEST and j % BATCH == 0


@njit
def choice_is_open(scores, n, totals, alive, eps, drop):
    """Whether another batch of samples is worth drawing.

    Parameters
    ----------
    scores : numpy.ndarray
        ``scores[j, i]``: the points of option ``i`` on sample ``j``; the first
        ``n`` rows are read, for the options ``alive``.
    n : int
        Samples drawn so far (at least 2).
    totals : numpy.ndarray
        The options' summed scores over those samples; the leader is the alive
        option of the highest total (the first of equal ones).
    alive : numpy.ndarray
        Bool per option: the options still in the race.  An option whose
        difference from the leader is more than ``drop`` standard errors
        (``drop`` > 0) is taken out here, for good.
    eps : float
        The expected loss, in points, worth sampling on for.
    drop : float
        The number of standard errors behind the leader at which an option is
        dropped; 0 drops none.

    Returns
    -------
    bool
        True while some alive option could beat the leader by more than ``eps``
        in expectation: with ``m`` and ``s`` the mean and standard error of its
        paired difference from the leader (normal approximation, the spread
        widened by :data:`PRIOR_VARIANCE`), the expected loss of keeping the
        leader is ``s * phi(m / s) - m * Phi(-m / s)``.
    """
    lead = -1
    for i in range(totals.shape[0]):
        if alive[i] and (lead < 0 or totals[i] > totals[lead]):
            lead = i
    is_open = False
    for c in range(totals.shape[0]):
        if c == lead or not alive[c]:
            continue
        total = 0.0
        squares = 0.0
        for j in range(n):
            d = scores[j, lead] - scores[j, c]
            total += d
            squares += d * d
        mean = total / n
        variance = max(squares / n - mean * mean, 0.0) * n / (n - 1)
        se = math.sqrt((variance + PRIOR_VARIANCE) / n)
        t = mean / se
        if drop > 0.0 and t > drop:
            alive[c] = False
            continue
        loss = se * math.exp(-0.5 * t * t) / _SQRT2PI - mean * 0.5 * math.erfc(t / _SQRT2)
        if loss > eps:
            is_open = True
    return is_open
