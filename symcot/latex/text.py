r"""Text for LaTeX: prose escaped, the formulas inside docstrings typeset as math, widths of math estimated.

A map's docstring mixes prose with formulas written in Unicode (``π_par ← π_flg1 π_buf + (1 - π_flg1)
π_par``, ``1[D>0]``, ``Σ_j π_buf[j]``). :func:`prose` keeps English words as text (escaped) and sets
every other token as math: Greek letters and symbols become commands, ``_x``/``^x`` sub- and
superscripts, literal braces ``\{ \}``. A character with no LaTeX form is printed as its code point
(``[U+2A01]``), never as a question mark; :data:`UNMAPPED` collects them so tests can assert there are none.

:func:`math_width` estimates the printed width (in points, Computer Modern at 10pt, text style) of the
math this package generates, so wide matrices can be split before TeX would overflow the page.
"""

from __future__ import annotations

import re
import unicodedata

#: Unicode letters and symbols of docstrings, as math.
MATH = {
    "α": r"\alpha", "β": r"\beta", "γ": r"\gamma", "δ": r"\delta", "ε": r"\varepsilon", "ζ": r"\zeta",
    "η": r"\eta", "θ": r"\theta", "ι": r"\iota", "κ": r"\kappa", "λ": r"\lambda", "μ": r"\mu", "ν": r"\nu",
    "ξ": r"\xi", "π": r"\pi", "ρ": r"\rho", "σ": r"\sigma", "τ": r"\tau", "υ": r"\upsilon", "φ": r"\varphi",
    "χ": r"\chi", "ψ": r"\psi", "ω": r"\omega", "Γ": r"\Gamma", "Δ": r"\Delta", "Θ": r"\Theta",
    "Λ": r"\Lambda", "Ξ": r"\Xi", "Π": r"\Pi", "Σ": r"\Sigma", "Φ": r"\Phi", "Ψ": r"\Psi", "Ω": r"\Omega",
    "‖": r"\|", "⊙": r"\odot", "←": r"\leftarrow", "→": r"\rightarrow", "↦": r"\mapsto", "⇒": r"\Rightarrow",
    "·": r"\cdot", "≥": r"\geq", "≤": r"\leq", "≠": r"\neq", "≈": r"\approx", "∈": r"\in", "∉": r"\notin",
    "×": r"\times", "∞": r"\infty", "−": "-", "⊥": r"\bot", "∑": r"\sum", "⊆": r"\subseteq", "∪": r"\cup",
    "∩": r"\cap", "∧": r"\wedge", "∨": r"\vee", "¬": r"\neg", "∀": r"\forall", "∃": r"\exists",
    "∅": r"\emptyset", "⌈": r"\lceil", "⌉": r"\rceil", "⌊": r"\lfloor", "⌋": r"\rfloor", "…": r"\ldots",
    "′": "'", "″": "''", "√": r"\surd", "∘": r"\circ", "⊗": r"\otimes", "⊕": r"\oplus", "ℓ": r"\ell",
}
#: Superscript and subscript characters.
SUPER = {"²": "2", "³": "3", "¹": "1", "⁰": "0", "⁴": "4", "⁵": "5", "⁶": "6", "⁷": "7", "⁸": "8", "⁹": "9",
         "ⁿ": "n", "ᵀ": r"\top", "⁺": "+", "⁻": "-"}
SUB = {"₀": "0", "₁": "1", "₂": "2", "₃": "3", "₄": "4", "₅": "5", "₆": "6", "₇": "7", "₈": "8", "₉": "9",
       "ᵢ": "i", "ⱼ": "j", "ₖ": "k", "ₙ": "n", "ₜ": "t"}
#: Multi-letter names set upright in math.
OPERATORS = {"ReLU", "max", "min", "str", "wid", "vec", "deg", "sign", "exp", "log", "argmax", "argmin"}
#: Characters that had no LaTeX form in something rendered (tests assert it stays empty).
UNMAPPED: set[str] = set()

_TEXT_SPECIAL = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "#": r"\#", "_": r"\_", "{": r"\{",
                 "}": r"\}", "$": r"\$", "^": r"\^{}", "~": r"\~{}", "<": r"\textless{}", ">": r"\textgreater{}",
                 "|": r"\textbar{}"}
_WORD = re.compile(r"^[(\"']*(?:[A-Za-z][a-z]*(?:-[A-Za-z]+)*(?:'s)?|[A-Z]{2,}(?:'s)?|"
                   r"(?:lem|thm|eq|obs|prop|def|fact|algo|sec|intro|cor):[A-Za-z0-9:\-]+(?:'s)?)[)\"']*[.,;:!?]*$")


def _unmapped(ch: str) -> str:
    UNMAPPED.add(ch)
    return f"[U+{ord(ch):04X}]"


def escape_text(text: str) -> str:
    """Plain text for LaTeX (text mode): specials escaped, accents kept, other symbols as inline math."""
    out = []
    for ch in text:
        if ch in _TEXT_SPECIAL:
            out.append(_TEXT_SPECIAL[ch])
        elif ord(ch) < 128:
            out.append(ch)
        elif ch in MATH or ch in SUPER or ch in SUB:
            out.append(f"${math_token(ch)}$")
        else:
            base = unicodedata.normalize("NFKD", ch)
            accents = {"\u0301": "'", "\u0300": "`", "\u0308": '"', "\u0302": "^", "\u0303": "~", "\u0327": "c"}
            if len(base) == 2 and ord(base[0]) < 128 and base[1] in accents:
                out.append(f"\\{accents[base[1]]}{{{base[0]}}}")
            else:
                out.append(_unmapped(ch))
    return "".join(out)


def _is_operator(token: str) -> bool:
    """A token made only of operator symbols (``‖``, ``←``, ``=``, ``+``)."""
    return bool(token) and all(c in "‖←→=+-·⊙≥≤≠×|<>" or c in ("↦", "⇒", "∈") for c in token)


def _is_word(token: str) -> bool:
    """An English word or a paper label (``copies``, ``Euler``, ``lem:a's``): set as text."""
    token = "".join(c for c in unicodedata.normalize("NFKD", token) if not unicodedata.combining(c))  # café
    core = token.strip("().,;:!?\"'")
    if len(core) == 1:
        return core in ("a", "A", "I")
    return bool(_WORD.match(token)) and core not in OPERATORS


def prose(text: str) -> str:
    """A docstring for LaTeX: words as escaped text, every formula-like token as inline math."""
    tokens = text.split()
    parts: list[tuple[bool, str]] = []  # (is math, token)
    for k, tok in enumerate(tokens):
        # a short word next to an operator (cur ‖ par, wd + Σ) is a name in a formula
        near_op = any(0 <= k + d < len(tokens) and _is_operator(tokens[k + d]) for d in (-1, 1))
        word = _is_word(tok) and not (near_op and len(tok) <= 4 and tok.isalpha())
        parts.append((not word, tok))
    out: list[str] = []
    i = 0
    while i < len(parts):
        is_math, tok = parts[i]
        if not is_math:
            out.append(escape_text(tok))
            i += 1
            continue
        run = [tok]
        while i + 1 < len(parts) and parts[i + 1][0]:
            i += 1
            run.append(parts[i][1])
        i += 1
        tail = ""
        if run[-1].endswith("'s") and len(run[-1]) > 2:  # a possessive: lem:mMc's, α'_B's
            tail, run[-1] = "'s", run[-1][:-2]
        m = re.search(r"[.,;:!?]+$", run[-1])
        if m and not re.search(r"[\[({]", run[-1][: m.start()][-1:] or "x"):
            tail, run[-1] = m.group(0), run[-1][: m.start()]
        body = " ".join(math_token(t) for t in run if t)
        out.append((f"${body}$" if body.strip() else "") + escape_text(tail))
    return " ".join(o for o in out if o)


def math_token(tok: str) -> str:
    r"""One formula-like token in LaTeX math (``π_vis`` → ``\pi_{vis}``, ``0³`` → ``0^{3}``)."""
    out: list[str] = []
    i, n = 0, len(tok)
    while i < n:
        ch = tok[i]
        if ch in ("_", "^") and i + 1 < n:
            j, group = _script(tok, i + 1, ch)
            out.append(f"{ch}{{{group}}}")
        elif ch in SUPER or ch in SUB:
            table, mark, sep = (SUPER, "^", " ") if ch in SUPER else (SUB, "_", "")
            j = i
            while j < n and tok[j] in table:
                j += 1
            out.append(mark + "{" + sep.join(table[c] for c in tok[i:j]) + "}")
        elif ch.isalpha() and ord(ch) < 128:
            j, word = _word(tok, i)
            out.append(word)
        else:
            j = i + 1
            out.append(_math_char(ch))
        i = j
    return "".join(out)


def _word(tok: str, i: int) -> tuple[int, str]:
    """The letters at ``tok[i]`` (and digits after a name: ``flg1`` → ``flg_1``) as math; the index after them."""
    n = len(tok)
    j = i
    while j < n and tok[j].isalpha() and ord(tok[j]) < 128:
        j += 1
    word = tok[i:j]
    if len(word) == 1:
        return j, word
    tex = f"\\operatorname{{{word}}}" if word in OPERATORS else f"\\mathit{{{word}}}"
    k = j
    while k < n and tok[k].isdigit():
        k += 1
    if k > j:  # flg1 -> flg_1, as the block names print in the matrices
        return k, f"{tex}_{{{tok[j:k]}}}"
    return j, tex


def _script(tok: str, i: int, kind: str) -> tuple[int, str]:
    """The argument of ``_``/``^`` at ``tok[i]``: a braced group, ``(…)`` after ``^``, or an identifier."""
    n = len(tok)
    if tok[i] == "{":
        depth, j = 0, i
        while j < n:
            depth += {"{": 1, "}": -1}.get(tok[j], 0)
            if depth == 0:
                break
            j += 1
        return j + 1, _script_body(tok[i + 1: j])
    if kind == "^" and tok[i] == "(":
        depth, j = 0, i
        while j < n:
            depth += {"(": 1, ")": -1}.get(tok[j], 0)
            if depth == 0:
                break
            j += 1
        return j + 1, _script_body(tok[i: j + 1])
    j = i
    while j < n and (tok[j].isalnum() and ord(tok[j]) < 128 or (tok[j] == "_" and kind == "_")):
        j += 1
    if j == i:  # a single symbol (π_λ)
        return i + 1, _script_body(tok[i])
    return j, _identifier(tok[i:j])


def _identifier(name: str) -> str:
    r"""A block name inside a script, as the matrices print it (``flg1`` → ``flg_1``, ``c_buf`` → ``c\_buf``)."""
    m = re.match(r"^([A-Za-z]{2,})(\d)$", name)
    if m:
        return f"{m.group(1)}_{m.group(2)}"
    return name.replace("_", r"\_")


def _script_body(text: str) -> str:
    """The inside of a sub/superscript group: a formula, but identifiers stay as written (``c_buf-1``)."""
    parts = re.split(r"([A-Za-z][A-Za-z0-9_]*)", text)
    out = []
    for k, p in enumerate(parts):
        if k % 2 == 1:
            out.append(_identifier(p) if len(p) > 1 else p)
        else:
            out.append("".join(math_token(c) if c not in "{}" else c for c in p))
    return "".join(out)


def _math_char(ch: str) -> str:
    if ch in MATH:
        return MATH[ch] + (" " if MATH[ch][-1:].isalpha() else "")
    if ch in "{}":
        return "\\" + ch
    if ch in "&%#$":
        return "\\" + ch
    if ch == "\\":
        return r"\backslash "
    if ch == "~":
        return r"\sim "
    if ch == '"':
        return "''"
    if ord(ch) < 128:
        return ch
    return r"\text{" + _unmapped(ch) + "}"


# -- widths ---------------------------------------------------------------------------------------

_ITALIC = dict(zip("abcdefghijklmnopqrstuvwxyz", [5.29, 4.29, 4.33, 5.20, 4.66, 4.90, 4.77, 5.76, 3.45, 4.12, 5.21,
                                                    2.98, 8.78, 6.00, 4.85, 5.03, 4.46, 4.51, 4.69, 3.61, 5.72, 4.85,
                                                    7.16, 5.72, 4.90, 4.65]))
_ITALIC.update(zip("ABCDEFGHIJKLMNOPQRSTUVWXYZ", [7.50, 7.59, 7.15, 8.28, 7.38, 6.43, 7.86, 8.31, 4.40, 5.54, 8.49,
                                                    6.81, 9.70, 8.03, 7.58, 6.42, 7.90, 7.59, 6.13, 5.84, 6.83, 5.83,
                                                    9.44, 8.28, 5.81, 6.83]))
#: Width of script-size glyphs relative to text size (cmmi7 is relatively wider than 70 % of cmmi10).
SCRIPT = 0.8
_BIN = 7.78 + 2 * 2.22  # + - \cdot \odot with medium spaces
_REL = 7.78 + 2 * 2.78  # = \leq \leftarrow with thick spaces
_CMD = {
    "pi": 5.7, "lambda": 5.83, "gamma": 5.17, "alpha": 6.4, "beta": 5.66, "delta": 4.44, "varepsilon": 4.66,
    "theta": 4.69, "mu": 6.03, "sigma": 5.71, "tau": 4.37, "varphi": 6.54, "psi": 6.86, "omega": 6.22,
    "Sigma": 7.22, "Delta": 8.33, "top": 7.78, "bot": 7.78, "infty": 10.0, "|": 5.0, "ldots": 13.4,
    "odot": _BIN, "cdot": _BIN, "times": _BIN, "otimes": _BIN, "oplus": _BIN, "circ": _BIN, "cup": _BIN,
    "cap": _BIN, "wedge": _BIN, "vee": _BIN,
    "leq": _REL, "geq": _REL, "neq": _REL, "in": _REL, "notin": _REL, "leftarrow": 10 + 5.56,
    "rightarrow": 10 + 5.56, "mapsto": 10 + 5.56, "Rightarrow": 10 + 5.56, "approx": _REL, "subseteq": _REL,
    ",": 1.67, ";": 2.78, ":": 2.22, "!": -1.67, "quad": 10.0, "qquad": 20.0, "{": 5.0, "}": 5.0,
    "lceil": 4.44, "rceil": 4.44, "lfloor": 4.44, "rfloor": 4.44, "emptyset": 5.0, "ell": 4.17,
    "backslash": 5.0, "sim": _REL, "neg": 6.67, "forall": 5.56, "exists": 5.56, "surd": 8.33, "sum": 10.56,
}
_TEXT_FONT = {"mathbf": 1.15, "mathrm": 1.0, "operatorname": 1.0, "mathit": 1.0, "text": 1.0}


def math_width(tex: str, scale: float = 1.0) -> float:
    """Estimated width in points of ``tex`` typeset in text-style math (Computer Modern, 10pt).

    Written for the math this package emits and calibrated against pdflatex on it (the tests compile
    every construction's LaTeX and assert no overfull box); it errs on the wide side (binary operators
    always get their spaces).
    """
    width, _ = _width(tex, 0, scale, stop=None)
    return width


def _group(tex: str, i: int) -> tuple[str, int]:
    """``{…}`` at ``tex[i]`` (or one token): its content and the index after it."""
    while i < len(tex) and tex[i] == " ":
        i += 1
    if i >= len(tex):
        return "", i
    if tex[i] == "{":
        depth, j = 0, i
        while j < len(tex):
            if tex[j] == "\\":
                j += 2
                continue
            depth += {"{": 1, "}": -1}.get(tex[j], 0)
            if depth == 0:
                return tex[i + 1: j], j + 1
            j += 1
        return tex[i + 1:], len(tex)
    if tex[i] == "\\":
        m = re.match(r"\\([A-Za-z]+|.)", tex[i:])
        assert m is not None
        return m.group(0), i + len(m.group(0))
    return tex[i], i + 1


def _width(tex: str, i: int, scale: float, stop: str | None) -> tuple[float, int]:
    total = 0.0
    n = len(tex)
    while i < n:
        ch = tex[i]
        if stop is not None and ch == stop:
            return total, i
        if ch == " ":
            i += 1
            continue
        if ch in "_^":
            body, i = _group(tex, i + 1)
            w = math_width(body, scale * SCRIPT)
            j = i
            while j < n and tex[j] == " ":
                j += 1
            if j < n and tex[j] in "_^" and tex[j] != ch:  # x_{a}^{b}: the scripts stack
                other, i = _group(tex, j + 1)
                w = max(w, math_width(other, scale * SCRIPT))
            total += w
            continue
        if ch == "{":
            body, i = _group(tex, i)
            total += math_width(body, scale)
            continue
        if ch == "\\":
            w, i, scale = _command(tex, i, scale)
            total += w
            continue
        total += _char(ch) * scale
        i += 1
    return total, i


def _char(ch: str) -> float:
    if ch in _ITALIC:
        return _ITALIC[ch]
    if ch.isdigit():
        return 5.0
    if ch in "+-*":
        return _BIN
    if ch in "=<>":
        return _REL
    if ch in "()[]":
        return 3.89
    if ch in ",;":
        return 2.78 + 1.67
    if ch in ".'":
        return 2.78
    if ch in "|/":
        return 5.0
    return 6.0


def _text_char(ch: str) -> float:
    if ch.isupper():
        return 7.5
    if ch in "il":
        return 2.78
    if ch in "mw":
        return 8.33
    return 5.0


def plural(k: int, word: str, many: str | None = None) -> str:
    """``1 layer``, ``2 layers`` (``many`` for an irregular plural)."""
    return f"{k} {word if k == 1 else (many or word + 's')}"


def _command(tex: str, i: int, scale: float) -> tuple[float, int, float]:
    """The width of the command at ``tex[i]`` (with its arguments), the index after it, the scale after it."""
    m = re.match(r"\\([A-Za-z]+|.)", tex[i:])
    assert m is not None
    name = m.group(1)
    i += len(m.group(0))
    if name == "begin":  # a matrix inside a cell: its widest row
        env, i = _group(tex, i)
        end = tex.find(f"\\end{{{env}}}", i)
        end = len(tex) if end < 0 else end
        small = env == "smallmatrix"
        rows = [r.split("&") for r in tex[i:end].split("\\\\")]
        w = max(sum(math_width(c, scale * (0.7 if small else 1.0)) for c in r)
                + (len(r) - 1) * (3.3 if small else 10.0) * scale for r in rows)
        return w, end + len(f"\\end{{{env}}}"), scale
    if name == "frac":
        num, i = _group(tex, i)
        den, i = _group(tex, i)
        return max(math_width(num, scale * SCRIPT), math_width(den, scale * SCRIPT)) + 2.4 * scale, i, scale
    if name in _TEXT_FONT:
        body, i = _group(tex, i)
        letters = re.sub(r"\\[A-Za-z]+|[{}]", "", body)
        extra = 1.67 if name == "operatorname" else 0.0
        return (sum(_text_char(c) for c in letters) * _TEXT_FONT[name] + extra) * scale, i, scale
    if name in ("left", "right"):  # the delimiter grows around scripts
        _, i = _group(tex, i)
        return 5.5 * scale, i, scale
    if name in ("allowbreak", "displaystyle", "hline", "limits", "nolimits"):
        return 0.0, i, scale
    if name in ("scriptstyle", "scriptscriptstyle"):
        return 0.0, i, scale * SCRIPT
    if name in ("mathrel", "mathbin"):
        body, i = _group(tex, i)
        return math_width(body, scale) + 5.56 * scale, i, scale
    return _CMD.get(name, 7.0) * scale, i, scale
