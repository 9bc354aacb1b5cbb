r"""What a construction's proof says about every token, for every size: the statement the all-n prover reads.

The exact checkers compare ``y_t`` with ``enc(s_t)`` on concrete inputs. A proof for every ``n`` needs
more: what *every* block of every token holds (the input tokens as functions of their index and the
input, each generated token as a function of the run's history), which token each head selects at each
step, and the values the proof states inside a step. :class:`AllNStatement` holds exactly that, in the
vocabulary of the algorithm's runs (:mod:`symcot.algorithms.logic`), and nothing about the weights: the
prover reads those from the decoder's IR.

* ``segments`` -- the prompt tokens before ``y_0`` (``x_⊥``, then ``x_0 … x_{n-1}``), each a
  :class:`~symcot.constructions.encoding.StateEncoding` read through views at the token's index; the
  construction's prompt is read from them (:class:`PromptStatement`: the only statement of the prompt).
* ``y0`` -- the prompt's last token; the prover shows it is ``token`` at step 0.
* ``token`` -- every block of ``y_τ`` as a function of the run at ``τ`` (it extends the construction's
  ``encoding``; the extra blocks are what the proof says the other registers hold).
* ``choices`` -- per head, the token it selects at step ``τ``, by cases (at a generated token; a choice stated
  for a prompt segment's class says what the head selects at that segment's token ``i``, for a head whose output
  at a prompt token a later layer reads).
* ``cuts`` -- block values the proof states after a layer (``π_flg1(y_t^(1)) = 1[traverse]``): proved at
  the step, then used in place of the computed value.

Views are functions ``view(c, τ)`` of an interpretation ``c`` (concrete values or Z3 terms). Each statement
is checked on every input of the exhaustive families before a proof is attempted
(:mod:`symcot.prove.alln.concrete`).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

import numpy as np
import sympy as sp

from symcot.algorithms.logic import Concrete, Interp, View, Vocabulary
from symcot.constructions.encoding import StateEncoding
from symcot.constructions.names import check_views
from symcot.constructions.prompt_batch import Elementwise
from symcot.errors import caller_site

#: The class of generated tokens ``y_0, y_1, …`` (its parameter is the step).
Y = "y"


@dataclass(frozen=True)
class Segment:
    """``count(c)`` consecutive prompt tokens: token ``i`` carries ``encoding`` read through ``views`` at ``i``.

    ``label(i)`` is the token's name in the prompt (``x_⊥``, ``x_3``); blocks the encoding does not list are 0.
    """

    cls: str
    count: Callable[[Interp], Any]
    encoding: StateEncoding
    views: dict[str, View]
    label: Callable[[int], str]
    #: ``file:line`` where the segment was written.
    site: str = field(default="", compare=False, repr=False)

    def __post_init__(self) -> None:
        if not self.site:
            object.__setattr__(self, "site", caller_site())


def _key_value(v: Any) -> Any:
    """A view's value as part of a prompt key: hashable, truth values as 0/1, row arrays kept as leaves.

    Lists become tuples; a ``(B,)`` array of a batch (or a :class:`~symcot.constructions.prompt_batch.RowSet`) stays a
    leaf of :mod:`~symcot.constructions.prompt_batch` (booleans as integers), a numpy scalar becomes a Python one.
    """
    if type(v) is int:
        return v
    if type(v) in (list, tuple) and all(type(x) in (int, bool) for x in v):  # the common vector, at once
        return tuple(map(int, v))
    if isinstance(v, np.ndarray):
        if v.ndim == 0:
            return _key_value(v.item())
        return v.astype(np.int64) if v.dtype.kind == "b" else v
    if isinstance(v, np.generic):
        return _key_value(v.item())
    if isinstance(v, bool):
        return int(v)
    if isinstance(v, (list, tuple)):
        return tuple(_key_value(x) for x in v)
    if isinstance(v, set):
        return frozenset(v)
    return v


@dataclass(frozen=True)
class PromptStatement:
    """The prompt before generation, stated by segments, and read from the input alone.

    ``keys(inp)`` gives :meth:`~symcot.constructions.base.Construction.token_keys`: ``(label, (cls, i, v_1, …))`` per
    token, ``v_k`` the values of the views the segment's encoding reads (in the order of their names), at the token's
    index ``i``, read through the vocabulary's input interpretation (:attr:`~symcot.algorithms.logic.Vocabulary.inputs`,
    no reference run). On a batch's stand-in the same reading gives row arrays where rows differ, the leaves of
    :mod:`symcot.constructions.prompt_batch`. ``token(cl, key, λ)`` assembles the segment's encoding from those values
    (read at ``i``, as the prover reads a prompt token: :meth:`~symcot.constructions.encoding.StateEncoding.expected`);
    blocks the encoding does not list are 0. A view is a function of the input and the index only: λ enters a
    token through its encoding (a ``vector`` term's ``∞ ↦ λ``), and tokens are kept per λ; a view traced into a
    term that mentions λ (``∞`` written as the prover's ``λ``: :attr:`reads_lam`) is read with the run's λ bound.

    ``views`` are the views beyond the vocabulary's that an encoding may read (the statement's); a segment's own
    views come first.
    """

    vocabulary: Vocabulary
    segments: tuple[Segment, ...]
    y0: Segment
    views: dict[str, View] = field(default_factory=dict)

    def all_segments(self) -> tuple[Segment, ...]:
        """The segments, then ``y_0``."""
        return (*self.segments, self.y0)

    def segment(self, cls: str) -> Segment:
        """The segment of class ``cls`` (``y_0``'s included)."""
        for s in self.all_segments():
            if s.cls == cls:
                return s
        raise KeyError(cls)

    def interpretation(self, inp: Any, lam: Any = None) -> Elementwise:
        """The input symbols of ``inp`` (or of a batch's stand-in), from the vocabulary's ``inputs``; ``λ`` if given."""
        if self.vocabulary.inputs is None:
            raise ValueError(f"vocabulary {self.vocabulary.name} has no input interpretation (Vocabulary.inputs): "
                             "a prompt stated by segments is read from the input symbols")
        values = self.vocabulary.inputs(inp)
        return Elementwise(values if lam is None else {**values, "lam": lam})

    @property
    def reads_lam(self) -> bool:
        """Whether a view a segment's encoding reads mentions λ (a traced view of ``∞`` written as ``λ``)."""
        return any(getattr(v, "reads_lam", False) for seg in self.all_segments()
                   for v in {**self.vocabulary.views, **self.views, **seg.views}.values())

    def keys(self, inp: Any, lam: Any = None) -> list[tuple[str, Hashable]]:
        """``(label, key)`` per prompt position of ``inp`` (see the class docstring), ``λ`` bound where given."""
        return self.keys_of(self.interpretation(inp, lam))

    def keys_of(self, c: Interp) -> list[tuple[str, Hashable]]:
        """The keys read through the interpretation ``c`` (the input's, or a whole run's)."""
        out: list[tuple[str, Hashable]] = []
        for seg in self.all_segments():
            count = _key_value(seg.count(c))
            if not isinstance(count, int):
                raise ValueError(f"segment {seg.cls}: its count must be one integer (in a batch, the same in every "
                                 f"row), got {type(count).__name__}")
            names = sorted(seg.encoding.fields())
            views = {**self.vocabulary.views, **self.views, **seg.views}
            missing = [f for f in names if f not in views]
            if missing:
                raise ValueError(f"segment {seg.cls}: no view for {missing}")
            for i in range(count):
                try:
                    vals = tuple(_key_value(views[f](c, i)) for f in names)
                except AttributeError as e:
                    raise ValueError(f"segment {seg.cls}: a view reads what the input does not give ({e}); a prompt "
                                     "token depends on the input symbols only") from e
                out.append((seg.label(i), (seg.cls, i, *vals)))
        return out

    def token(self, cl: Any, key: Any, lam: Any = None) -> list[Any]:
        """The token vector of ``key`` at the layout ``cl`` and λ."""
        cls, i, *vals = key
        seg = self.segment(cls)
        state = SimpleNamespace(**dict(zip(sorted(seg.encoding.fields()), vals)))
        return cl.assemble(seg.encoding.expected(state, i, cl.sizes, lam))


@dataclass(frozen=True)
class Choice:
    """The token head ``head`` of layer ``layer`` selects at the tokens of class ``cls``.

    ``cases(c, p)`` lists ``(condition, class, parameter)``; the first case whose condition holds applies,
    and the conditions together must cover every ``p``. ``p`` is the step ``τ`` for the generated tokens
    (``cls = y``, the default), the token's index ``i`` in its segment for a prompt segment's class (the head at
    ``x_i``, whose context is the tokens up to ``x_i``). ``source`` quotes the proof.
    """

    layer: int
    head: str
    cases: Callable[[Interp, Any], Sequence[tuple[Any, str, Any]]]
    source: str = ""
    cls: str = Y
    #: ``file:line`` where the choice was written.
    site: str = field(default="", compare=False, repr=False)

    def __post_init__(self) -> None:
        if not self.site:
            object.__setattr__(self, "site", caller_site())


@dataclass(frozen=True)
class Constant:
    """A constant of the weights kept symbolic in the proof (``λ``), with the hypothesis the proof assumes."""

    symbol: sp.Symbol
    name: str


@dataclass(frozen=True)
class AllNStatement:
    """Everything the proof states about the tokens of a construction (see the module docstring).

    Attributes:
        vocabulary: the algorithm's runs (symbols, facts, views of the reference state).
        sizes: each size symbol of the layout as a function of ``c`` (``{n: lambda c: c.n}``).
        segments: the prompt tokens before ``y_0``, in order.
        y0: the prompt's ``y_0``.
        token: every block of ``y_τ``.
        views: views ``token`` and ``cuts`` read beyond the vocabulary's.
        choices: every head of every layer.
        cuts: per layer, block values after that layer at step ``τ``.
        last_token: ``"encoding"`` when the run stops on a token that is never read again (only the
            construction's ``encoding`` is compared on it), ``"all"`` otherwise.
        steps: the last step ``T`` (default: the vocabulary's ``T``).
        notes: what the statement assumes or leaves out, for the report.
        quotes: per ``(layer, block)`` of a cut, where the proof says so (a choice quotes in its ``source``).
        stop_witness: where the stop rule fails on ``y_τ``, ``τ < T``: a coordinate of its block as a function
            of ``(c, τ)`` (a search's next vertex ``cur(τ + 1)``, one still unvisited). Guidance only: the
            obligation instantiates "the rule fires on ``y_τ``" there, which only weakens that hypothesis.

    """

    vocabulary: Vocabulary
    sizes: dict[sp.Symbol, Callable[[Interp], Any]]
    segments: tuple[Segment, ...]
    y0: Segment
    token: StateEncoding
    views: dict[str, View]
    choices: tuple[Choice, ...]
    cuts: dict[int, StateEncoding] = field(default_factory=dict)
    last_token: str = "encoding"
    steps: Callable[[Interp], Any] = field(default=lambda c: c.T)
    notes: tuple[str, ...] = ()
    quotes: dict[tuple[int, str], str] = field(default_factory=dict)
    stop_witness: Callable[[Interp, Any], Any] | None = None
    #: ``file:line`` where the statement was written.
    site: str = field(default="", compare=False, repr=False)

    def __post_init__(self) -> None:
        if not self.site:
            object.__setattr__(self, "site", caller_site())
        if self.last_token not in ("encoding", "all"):
            raise ValueError("last_token must be 'encoding' or 'all'")
        names = [s.cls for s in self.segments]
        if Y in names or len(set(names)) != len(names):
            raise ValueError(f"segment classes must be distinct and not {Y!r}: {names}")
        keys = [(ch.layer, ch.head, ch.cls) for ch in self.choices]
        twice = sorted({k for k in keys if keys.count(k) > 1})
        if twice:
            raise ValueError(f"one choice per head and token class: {twice} stated twice")
        unknown = sorted({ch.cls for ch in self.choices} - {*names, Y})
        if unknown:
            raise ValueError(f"choices stated for token classes {unknown}, which are neither a segment's nor {Y!r}")
        shadowed = sorted(set(self.views) & set(self.vocabulary.views))
        for seg in (*self.segments, self.y0):
            shadowed += [f"{v} (segment {seg.cls})" for v in sorted(set(seg.views) & set(self.all_views()))]
        if shadowed:
            raise ValueError(f"one view per name: {', '.join(shadowed)} would shadow a view of the same name (the "
                             "concrete phase and the prover must read the same one); rename it")
        check_views(self)

    def all_views(self) -> dict[str, View]:
        """The vocabulary's views and this statement's (no name is in both: see ``__post_init__``)."""
        return {**self.vocabulary.views, **self.views}

    @property
    def prompt(self) -> PromptStatement:
        """The prompt this statement states (its segments and ``y_0``): the construction's prompt.

        Made on each read (a light view of the fields): a statement holds nothing but its fields, so it is sent
        to a shard's worker as it is written.
        """
        return PromptStatement(self.vocabulary, self.segments, self.y0, self.views)

    def label(self, cls: str, p: int) -> str:
        """The prompt label of token ``p`` of class ``cls`` (``y_p`` for the generated tokens)."""
        seg = next((s for s in self.segments if s.cls == cls), None)
        return seg.label(p) if seg is not None else f"y_{p}"

    def inside_step(self, inp: Any, states: Sequence[Any], tau: int, sizes: dict[str, int],
                    lam: Any = None) -> list[tuple[int, str, str, Any, str]]:
        """What the statement says happens inside step ``τ`` (producing ``y_{τ+1}``) on a concrete run.

        ``(layer, "block", block, values, source)`` for each block of each cut and ``(layer, "head", head,
        label, source)`` for each head's choice: the per-step claims read once, from the cuts and choices the
        prover proves, by the exact replay's diagnosis of a failure.
        """
        values = self.vocabulary.interpret(inp, states)
        c = Concrete(values if lam is None else {**values, "lam": lam})
        views = self.all_views()
        out: list[tuple[int, str, str, Any, str]] = []
        for layer, enc in sorted(self.cuts.items()):
            for b, vals in blocks_of(enc, views, c, tau, sizes, lam).items():
                quote = self.quotes.get((layer, b), f"the statement's cut after layer {layer}: π_{b}")
                out.append((layer, "block", b, vals, quote))
        for ch in self.choices:
            if ch.cls != Y:
                continue
            for cond, cls, p in ch.cases(c, tau):
                if cond:
                    out.append((ch.layer, "head", ch.head, self.label(cls, int(p)), ch.source))
                    break
        return out

    def choice(self, layer: int, head: str, cls: str = Y) -> Choice | None:
        """The stated choice of ``head`` at ``layer`` at the tokens of class ``cls`` (``None`` if none is stated)."""
        return next((ch for ch in self.choices if ch.layer == layer and ch.head == head and ch.cls == cls), None)

    def classes(self) -> list[str]:
        """Token classes in prompt order: the segments', then ``y``."""
        return [s.cls for s in self.segments] + [Y]

    def segment(self, cls: str) -> Segment:
        """The segment of class ``cls``."""
        for s in self.segments:
            if s.cls == cls:
                return s
        raise KeyError(cls)


class ViewState:
    """Attribute access to views at one parameter, so a :class:`StateEncoding` reads them like a state.

    A one-hot of ``-1`` (φ, "none") is the zero vector, as for ``None``.
    """

    def __init__(self, views: dict[str, Any], c: Concrete, p: int):
        self._views, self._c, self._p = views, c, p

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        try:
            view = self._views[name]
        except KeyError:
            raise AttributeError(f"no view {name!r}") from None
        return view(self._c, self._p)


def blocks_of(enc: StateEncoding, views: dict[str, Any], c: Concrete, p: int, sizes: dict[str, int],
              lam: Any = None) -> dict[str, list[Any]]:
    """The encoding's blocks at parameter ``p`` (only the blocks present there)."""
    return enc.expected(ViewState(views, c, p), p, sizes, lam)
