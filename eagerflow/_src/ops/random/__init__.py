"""tf.random: seeded, stateless and Generator draws, and the Philox generator behind them."""
