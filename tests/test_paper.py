"""A paper's title, subject and labels: which labels have no claim, which ids are the paper's own."""

from symcot.paper import Paper


def test_uncovered_lists_the_labels_without_a_claim_in_order():
    paper = Paper("T", "a draft at commit abc", {"thm:a": ("theorem", True), "def:b": ("definition", False),
                                                 "lem:c": ("lemma", True)})
    assert paper.uncovered({"thm:a", "ours:x"}) == [("def:b", "definition", False), ("lem:c", "lemma", True)]
    assert paper.is_label("thm:a") and not paper.is_label("ours:x")


def test_a_directory_without_labels_has_none_uncovered():
    assert Paper().uncovered(["x"]) == [] and not Paper().is_label("x")
