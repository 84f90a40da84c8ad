"""Graph -> Executable: the one compile entry point, `compile_program`.

Every graph that runs as generated code comes here: a traced function (trace/concrete.py), the
variant of it that also returns its intermediates, a `cond` branch or `while` body
(control_flow/subgraph.py) and a loaded function. Compiling is three steps, always in this order:

    program = optimize(graph, outputs=outputs)          # the passes (passes/pipeline.py)
    generated = generate(program, name, captures, ...)   # the Python code (codegen/pycode.py)
    compiled = CompiledProgram(program, name, captures)  # jit_compile only (codegen/xla.py)

Why one function: the three callers used to repeat these lines, each slightly differently, inside
their constructors. Now a constructor takes an Executable that is already made, so building one
(a ConcreteFunction for a loaded graph, a Branch variant) never compiles behind its back, and a
test can count compiles by patching this one name.
"""
from __future__ import annotations

from ..passes.pipeline import optimize
from .pycode import generate


class CompileOptions:
    """How a graph is compiled; frozen, so one instance is shared by every compile that wants it.

    `recording`: ops take the attributes they take under a recording tape (`OpDef.record_attrs`:
    a loop then keeps the history its gradient needs). `jit_compile`: the program also becomes one
    XLA executable (codegen/xla.py), which is what then runs; the NumPy code stays its reference.
    (A plain class with __slots__: no per-compile dataclass machinery.)"""

    __slots__ = ("recording", "jit_compile")

    def __init__(self, recording=False, jit_compile=False):
        object.__setattr__(self, "recording", bool(recording))
        object.__setattr__(self, "jit_compile", bool(jit_compile))

    def __setattr__(self, name, value):
        raise AttributeError(f"CompileOptions are frozen; make a new one (tried to set {name!r})")

    def __eq__(self, other):
        return (isinstance(other, CompileOptions) and self.recording == other.recording
                and self.jit_compile == other.jit_compile)

    def __hash__(self):
        return hash((self.recording, self.jit_compile))

    def __repr__(self):
        return f"CompileOptions(recording={self.recording}, jit_compile={self.jit_compile})"


DEFAULT = CompileOptions()
RECORDING = CompileOptions(recording=True)


class Executable:
    """A compiled graph: `fn(*arrays) -> tuple of arrays` and what explains it.

    `program`: the graph after the passes (what an enclosing function's generated code inlines
    for a branch, and what the XLA lowering runs). `generated`: codegen/pycode.py's
    GeneratedFunction (the source, and the line -> op maps that turn a kernel's error into one
    naming the node). `compiled`: codegen/xla.py's CompiledProgram under jit_compile, else None.
    `fn` is what runs: the compiled executable's when there is one, else the generated code."""

    __slots__ = ("name", "graph", "outputs", "captures", "options", "program", "generated", "compiled", "fn")

    def __init__(self, name, graph, outputs, captures, options, program, generated, compiled):
        self.name = name
        self.graph = graph
        self.outputs = outputs
        self.captures = captures
        self.options = options
        self.program = program
        self.generated = generated
        self.compiled = compiled
        self.fn = generated.fn if compiled is None else compiled.fn

    @property
    def source(self) -> str:
        """The generated Python source (what runs without jit_compile)."""
        return self.generated.source

    @property
    def jit_compile(self) -> bool:
        return self.compiled is not None

    def __repr__(self):
        kind = "XLA" if self.compiled is not None else "Python"
        return f"<Executable {self.name} ({kind}): {len(self.program.ops)} ops>"


def compile_program(graph, outputs, captures, *, name, options=DEFAULT) -> Executable:
    """Runs the passes and the code generator over `graph` computing `outputs` (a list of its
    tensors: the graph's own outputs, or those plus intermediates). `captures` maps id(placeholder)
    -> the outside value it stands for, bound into the code as a global (an ndarray, or a Variable
    for a resource handle); the other placeholders of `graph.inputs` are the parameters, in order.
    A branch passes no captures: its captured values come in as arguments after its own inputs."""
    outputs = list(outputs)
    program = optimize(graph, outputs=outputs)
    generated = generate(program, name, captures, options.recording)
    compiled = None
    if options.jit_compile:  # imported only when asked for: it needs JAX (the `xla` extra)
        from .xla import CompiledProgram
        compiled = CompiledProgram(program, name, captures)
    return Executable(name, graph, outputs, captures, options, program, generated, compiled)
