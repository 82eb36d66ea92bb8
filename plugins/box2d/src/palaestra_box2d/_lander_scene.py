"""LunarLander's scale and viewport: what the env and its drawing share."""

FPS = 50
SCALE = 30.0  # pixels per metre
VIEWPORT_W, VIEWPORT_H = 600, 400
W, H = VIEWPORT_W / SCALE, VIEWPORT_H / SCALE  # the viewport in metres
