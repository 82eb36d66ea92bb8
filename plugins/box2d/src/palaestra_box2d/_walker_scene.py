"""BipedalWalker's scale, viewport and terrain grid: what the env and its drawing share."""

FPS = 50
SCALE = 30.0  # pixels per metre
VIEWPORT_W, VIEWPORT_H = 600, 400
TERRAIN_STEP = 14 / SCALE  # metres between terrain points
TERRAIN_HEIGHT = VIEWPORT_H / SCALE / 4
