"""Resource-variable reads and writes, and the fused optimizer updates (training ops)."""
