"""Control flow with sub-graphs: cond/case/switch_case (If), while_loop (While)."""
