"""A missing optional dependency raises DependencyNotInstalled naming what to install."""

import sys

import numpy as np
import pytest

import palaestra
from palaestra.error import DependencyNotInstalled
from tests.fixtures.fake_ale import make_fake_atari_class
from tests.fixtures.image_env import make_image_env_class

ImageEnv = make_image_env_class(palaestra)


@pytest.fixture
def without(monkeypatch):
    """Make ``import name`` fail for the given modules (as if not installed)."""

    def hide(*names):
        for name in names:
            monkeypatch.setitem(sys.modules, name, None)

    return hide


def test_opencv_wrappers_name_the_opencv_extra(without):
    without("cv2")
    with pytest.raises(DependencyNotInstalled, match=r"palaestra\[opencv\]"):
        palaestra.wrappers.ResizeObservation(ImageEnv(), (12, 16))
    with pytest.raises(DependencyNotInstalled, match=r"palaestra\[opencv\]"):
        palaestra.wrappers.AtariPreprocessing(make_fake_atari_class(palaestra)())


def test_video_wrappers_name_the_video_extra(without, tmp_path):
    without("imageio", "imageio.v2", "imageio_ffmpeg")
    with pytest.raises(DependencyNotInstalled, match=r"palaestra\[video\]"):
        palaestra.wrappers.RecordVideo(ImageEnv(render_mode="rgb_array"), str(tmp_path))
    vector = palaestra.vector.SyncVectorEnv([lambda: ImageEnv(render_mode="rgb_array")] * 2)
    with pytest.raises(DependencyNotInstalled, match=r"palaestra\[video\]"):
        palaestra.wrappers.vector.RecordVideo(vector, str(tmp_path))
    from palaestra.utils.save_video import save_video

    with pytest.raises(DependencyNotInstalled, match=r"palaestra\[video\]"):
        save_video([np.zeros((4, 4, 3), np.uint8)], str(tmp_path), fps=4)


def test_pygame_and_matplotlib_tools_name_their_install(without):
    from palaestra.utils.play import PlayPlot, display_arr

    without("pygame")
    with pytest.raises(DependencyNotInstalled, match=r"pygame"):
        display_arr(None, np.zeros((2, 2, 3), np.uint8), (2, 2), True)
    without("matplotlib", "matplotlib.pyplot")
    with pytest.raises(DependencyNotInstalled, match="pip install matplotlib"):
        PlayPlot(lambda *step: [0], 5, ["reward"])
