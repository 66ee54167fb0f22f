"""Per-game rules behind shared protocols (below the campaign layer: plain inputs, no campaign
file). ``supply``/``control``/``hexnet``/``kinds`` are shared; ``<game>/`` packages hold each
game's rules, each citing its rule numbers."""
