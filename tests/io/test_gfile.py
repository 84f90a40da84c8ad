"""tf.io.gfile against TensorFlow 2.21's behaviour and messages (recorded from the oracle)."""
import os

import pytest

import eagerflow as tf

G = tf.io.gfile


@pytest.fixture
def here(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with G.GFile("a.txt", "w") as f:
        f.write("x\ny\r\nz")
    return tmp_path


def test_text_and_binary_reads_keep_carriage_returns(here):
    assert G.GFile("a.txt").read() == "x\ny\r\nz"
    assert G.GFile("a.txt", "rb").read() == b"x\ny\r\nz"


def test_lines_end_at_newline(here):
    # TensorFlow's line reader drops "\r" (read() keeps it); iteration gives the same lines.
    assert G.GFile("a.txt").readlines() == ["x\n", "y\n", "z"]
    assert list(G.GFile("a.txt")) == ["x\n", "y\n", "z"]
    f = G.GFile("a.txt")
    assert [f.readline() for _ in range(4)] == ["x\n", "y\n", "z", ""]


def test_read_n_tell_seek(here):
    f = G.GFile("a.txt")
    assert [f.read(2), f.tell(), f.read(), f.tell()] == ["x\n", 2, "y\r\nz", 6]
    f.seek(2)
    assert f.read() == "y\r\nz"


def test_append_and_write_modes_accept_bytes_and_str(here):
    with G.GFile("a.txt", "a") as f:
        f.write("W")
    assert G.GFile("a.txt").read() == "x\ny\r\nzW"
    with G.GFile("b.txt", "w") as f:
        f.write(b"bytes")
    with G.GFile("b.bin", "wb") as f:
        f.write("str in wb")
    assert G.GFile("b.bin", "rb").read() == b"str in wb"
    assert G.GFile("b.txt").read() == "bytes"
    g = G.GFile("a.txt")
    assert (g.size(), g.name, g.mode) == (7, "a.txt", "r")


def test_a_closed_file_reopens_on_read(here):
    f = G.GFile("a.txt")
    f.read(1)
    f.close()
    assert f.read() == "x\ny\r\nz"


def test_errors(here):
    f = G.GFile("nope.txt")  # opening is lazy: no error yet
    with pytest.raises(tf.errors.NotFoundError, match=r"^nope.txt; No such file or directory$"):
        f.read()
    with pytest.raises(tf.errors.InvalidArgumentError, match="mode is not 'r' or 'w' or 'a' or 'r\\+' or 'w\\+'"):
        G.GFile("a.txt", "x")
    with pytest.raises(tf.errors.PermissionDeniedError, match="File isn't open for writing"):
        G.GFile("a.txt").write("k")
    with pytest.raises(tf.errors.PermissionDeniedError, match="File isn't open for reading"):
        G.GFile("c.txt", "w").read()
    with pytest.raises(tf.errors.FailedPreconditionError, match=f"^{here}; Is a directory$"):
        G.GFile(str(here)).read()


def test_directories(here):
    assert (G.exists("a.txt"), G.exists("nope"), G.exists(str(here))) == (True, False, True)
    assert (G.isdir("a.txt"), G.isdir("nope"), G.isdir(str(here))) == (False, False, True)
    G.makedirs("sub/deep/er")
    G.makedirs("sub/deep/er")  # an existing tree is fine
    G.mkdir("sub")  # so is an existing directory
    with pytest.raises(tf.errors.NotFoundError, match="^q/r; No such file or directory$"):
        G.mkdir("q/r")
    G.mkdir("m")
    with G.GFile("sub/x.txt", "w") as f:
        f.write("1")
    with G.GFile("sub/deep/y.txt", "w") as f:
        f.write("22")
    assert sorted(G.listdir(".")) == ["a.txt", "m", "sub"]
    for bad in ("nope", "a.txt"):
        with pytest.raises(tf.errors.NotFoundError, match=f"^Could not find directory {bad}$"):
            G.listdir(bad)
    assert G.glob("*.txt") == ["./a.txt"]
    assert sorted(G.glob("sub/*")) == ["sub/deep", "sub/x.txt"]
    assert G.glob("zz*") == []
    assert G.glob(os.path.join(str(here), "*.txt")) == [os.path.join(str(here), "a.txt")]
    walked = [(r, sorted(a), sorted(b)) for r, a, b in G.walk("sub")]
    assert walked == [("sub", ["deep"], ["x.txt"]), ("sub/deep", ["er"], ["y.txt"]), ("sub/deep/er", [], [])]
    assert [w[0] for w in G.walk("sub", topdown=False)] == ["sub/deep/er", "sub/deep", "sub"]
    assert list(G.walk("nope")) == []
    s = G.stat("sub/deep/y.txt")
    assert (s.length, s.is_directory, type(s.mtime_nsec)) == (2, False, int)
    assert G.stat("sub").is_directory
    with pytest.raises(tf.errors.NotFoundError, match="^nope; No such file or directory$"):
        G.stat("nope")
    with pytest.raises(tf.errors.FailedPreconditionError, match="^m; Is a directory$"):
        G.remove("m")
    with pytest.raises(tf.errors.NotFoundError, match="^nope not found$"):
        G.rmtree("nope")
    G.rmtree("sub")
    assert not G.exists("sub")


def test_copy_rename_remove(here):
    G.copy("a.txt", "a2.txt")
    with pytest.raises(tf.errors.AlreadyExistsError, match="^file already exists$"):
        G.copy("a.txt", "a2.txt")
    with open("a.txt", "w") as f:
        f.write("new")
    G.copy("a.txt", "a2.txt", overwrite=True)
    assert G.GFile("a2.txt").read() == "new"
    with pytest.raises(tf.errors.NotFoundError, match="^nope; No such file or directory$"):
        G.copy("nope", "a3.txt")
    G.rename("a2.txt", "a4.txt")
    assert G.exists("a4.txt") and not G.exists("a2.txt")
    with pytest.raises(tf.errors.AlreadyExistsError, match="^file already exists$"):
        G.rename("a4.txt", "a.txt")
    with pytest.raises(tf.errors.NotFoundError, match="^nope; No such file or directory$"):
        G.rename("nope", "zz")
    G.remove("a4.txt")
    with pytest.raises(tf.errors.NotFoundError, match="^a4.txt; No such file or directory$"):
        G.remove("a4.txt")


def test_join():
    assert (G.join("a", "b", "c"), G.join("a/", "b"), G.join("/x", "/y")) == ("a/b/c", "a/b", "/y")
