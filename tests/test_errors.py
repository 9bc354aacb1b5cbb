"""Locating an exception in the user's code: file, line, function, context; it survives pickling."""

import pickle

from symcot.errors import InvalidInputError, UserCodeError, locate, user_frame


def _fails():
    return {}["missing"]


def test_locate_names_this_file_and_line_and_the_context():
    try:
        _fails()
    except KeyError as e:
        err = locate(e, "on input 3")
        where = user_frame(e)
    assert where is not None and where[0] == __file__ and where[2] == "_fails"
    assert isinstance(err, UserCodeError)
    assert str(err) == f"{__file__}:{where[1]}: KeyError: 'missing' (in _fails, on input 3)"
    assert "Traceback" in err.traceback_text and '{}["missing"]' in err.traceback_text
    back = pickle.loads(pickle.dumps(err))  # from a worker process to the parent
    assert str(back) == str(err) and back.traceback_text == err.traceback_text


def test_an_intended_error_keeps_its_message():
    e = InvalidInputError("not a bit string")
    assert locate(e) is e
    assert str(locate(e, "--input 'x'")) == "not a bit string (--input 'x')"
    first = locate(ValueError("v"), "ctx")
    assert locate(first, "ctx") is first  # the same context is not added twice
    assert str(locate(first, "more")).endswith("; more")


def test_caller_site_is_the_users_line_and_did_you_mean_the_closest():
    from symcot.errors import caller_site, did_you_mean

    here, line = caller_site(), test_caller_site_is_the_users_line_and_did_you_mean_the_closest.__code__.co_firstlineno
    assert here == f"{__file__}:{line + 3}"
    assert did_you_mean("cnnt", ["pos", "cnt"]) == "; did you mean 'cnt'?"
    assert did_you_mean("xyz", ["pos", "cnt"]) == ""
