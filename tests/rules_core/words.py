"""Words the rules' messages share, written once for the tests that expect them."""

# What an unknown tile name is told: the names a tile may have.
ONE_OF_TILES = (
    "; expected one of TILE_M1…TILE_M9, TILE_P1…TILE_P9, TILE_S1…TILE_S9, TILE_EAST, TILE_SOUTH, TILE_WEST,"
    " TILE_NORTH, TILE_RED, TILE_GREEN, TILE_WHITE"
)
