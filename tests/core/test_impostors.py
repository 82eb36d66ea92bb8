"""A plugin writes only the ids it owns, whichever API it uses and whenever it runs."""

import contextlib
import warnings

import pytest

import palaestra
from palaestra.error import (
    NameNotFound,
    PluginConflictError,
    PluginError,
    PluginLoadError,
    RegistrationError,
)
from tests.fixtures.fake_dists import GOOD_ENV, hooks_source, make_dist

GENUINE = "class Genuine(CounterEnv):\n    pass\n"
IMPOSTOR_ENV = GOOD_ENV + "\n\nclass Evil(CounterEnv):\n    pass\n"


def genuine_suite(site):
    """``real-suite`` owns ``Cart-v0`` (declared) and namespace ``real``."""
    make_dist(
        site,
        "real-suite",
        {"real": "real_suite._hooks"},
        {
            "real_suite._hooks": hooks_source(
                'registrar.register("Cart-v0", entry_point="real_suite.env:Genuine", default_namespace=True)\n'
                'registrar.register("Lab-v0", entry_point="real_suite.env:Genuine")'
            ),
            "real_suite.env": GOOD_ENV + "\n\n" + GENUINE,
        },
        ids={"Cart-v0": "real", "real/Lab-v0": "real"},
    )


def impostor(site, hook_module="", env_module="", ids=None, registrations=""):
    """``sneaky-envs`` (namespace ``sneaky``) whose hook module runs ``hook_module`` at import."""
    make_dist(
        site,
        "sneaky-envs",
        {"sneaky": "sneaky_envs._hooks"},
        {
            "sneaky_envs._hooks": "import palaestra\n" + hook_module + "\n" + hooks_source(registrations),
            "sneaky_envs.env": IMPOSTOR_ENV + env_module,
        },
        ids=ids if ids is not None else {"sneaky/Own-v0": "sneaky"},
    )


def genuine_class(env_id="Cart-v0"):
    return type(palaestra.make(env_id).unwrapped).__name__


REGISTER_CALLS = {
    "register": 'palaestra.register("Cart-v0", entry_point="sneaky_envs.env:Evil")',
    "envs.registration.register": (
        "from palaestra.envs.registration import register\n"
        'register("Cart-v0", entry_point="sneaky_envs.env:Evil")'
    ),
    "registry item": (
        'palaestra.registry["Cart-v0"] = palaestra.EnvSpec("Cart-v0", entry_point="sneaky_envs.env:Evil")'
    ),
    "registry.add": 'palaestra.registry.add(palaestra.EnvSpec("Cart-v0", entry_point="sneaky_envs.env:Evil"))',
}


@pytest.mark.parametrize("call", REGISTER_CALLS.values(), ids=REGISTER_CALLS)
def test_a_plugin_replacing_another_distributions_id_at_import_fails_alone_naming_both(site, isolated, call):
    genuine_suite(site)
    impostor(site, hook_module=call)
    with pytest.raises(PluginLoadError) as info:
        isolated.loader.load_namespace("sneaky")
    cause = info.value.__cause__
    assert isinstance(cause, PluginConflictError)
    assert set(cause.distributions) == {"real-suite", "sneaky-envs"}
    assert "'Cart-v0', which belongs to real-suite" in str(info.value)
    assert genuine_class() == "Genuine"


def test_the_issues_reproducer_keeps_the_genuine_env(site, isolated):
    genuine_suite(site)
    impostor(site, hook_module=REGISTER_CALLS["register"])
    with pytest.raises(NameNotFound):
        palaestra.make("Xyzzy-v0")  # loads nothing: an unknown id no longer loads every plugin
    assert genuine_class() == "Genuine"
    with pytest.raises(PluginLoadError, match="belongs to real-suite"):
        isolated.loader.load_namespace("sneaky")  # whenever the impostor does load, it fails alone
    assert genuine_class() == "Genuine"


def test_a_plugin_cannot_replace_an_id_from_its_env_module_later(site, isolated):
    genuine_suite(site)
    impostor(
        site,
        env_module='\nimport palaestra\npalaestra.register("Cart-v0", entry_point="sneaky_envs.env:Evil")\n',
        registrations='registrar.register("Own-v0", entry_point="sneaky_envs.env:CounterEnv")',
    )
    assert genuine_class() == "Genuine"
    with pytest.raises(PluginConflictError, match="belongs to real-suite") as info:
        palaestra.make("sneaky/Own-v0")  # importing its env module runs the register call
    assert set(info.value.distributions) == {"real-suite", "sneaky-envs"}
    assert genuine_class() == "Genuine"


def test_a_plugin_cannot_delete_another_distributions_id(site, isolated):
    genuine_suite(site)
    impostor(site, hook_module='del palaestra.registry["Cart-v0"]')
    with pytest.raises(PluginLoadError, match="belongs to real-suite"):
        isolated.loader.load_namespace("sneaky")
    assert genuine_class() == "Genuine"


def test_a_plugin_cannot_register_in_another_plugins_namespace_through_register(site, isolated):
    genuine_suite(site)
    impostor(site, hook_module='palaestra.register("real/Lab-v0", entry_point="sneaky_envs.env:Evil")')
    with pytest.raises(PluginLoadError, match="'real/Lab-v0', which belongs to real-suite"):
        isolated.loader.load_namespace("sneaky")
    assert genuine_class("real/Lab-v0") == "Genuine"


def test_a_plugin_registering_its_own_declared_ids_gymnasiums_way_owns_them(site, isolated):
    impostor(
        site,
        hook_module='palaestra.register("sneaky/Own-v0", entry_point="sneaky_envs.env:Evil")',
        ids={"sneaky/Own-v0": "sneaky", "Loud-v0": "sneaky"},
        registrations='palaestra.register("Loud-v0", entry_point="sneaky_envs.env:Evil")',
    )
    assert genuine_class("sneaky/Own-v0") == "Evil"
    assert isolated.registry.owner("sneaky/Own-v0") == "sneaky-envs"
    assert genuine_class("Loud-v0") == "Evil"
    assert isolated.registry.owner("Loud-v0") == "sneaky-envs"


def test_a_plugin_registering_an_undeclared_id_is_told_what_to_declare(site, isolated):
    impostor(site, hook_module='palaestra.register("sneaky/Hidden-v0", entry_point="sneaky_envs.env:Evil")')
    with pytest.raises(PluginLoadError) as info:
        isolated.loader.load_namespace("sneaky")
    assert isinstance(info.value.__cause__, RegistrationError)
    assert '`"sneaky/Hidden-v0" = "sneaky"`' in str(info.value)
    assert '"palaestra.env_ids"' in str(info.value)


def test_user_code_keeps_gymnasiums_override_with_a_warning(site, isolated):
    genuine_suite(site)
    with pytest.warns(UserWarning, match="Overriding environment Cart-v0 already in registry"):
        palaestra.register("Cart-v0", entry_point="tests.fixtures.fake_dists:make_dist")
    assert isolated.registry.owner("Cart-v0") is None
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        palaestra.registry["real/Lab-v0"] = palaestra.EnvSpec("real/Lab-v0", entry_point="x:Y")  # as a dict
    assert isolated.registry.owner("real/Lab-v0") is None


def test_a_conflict_recommends_neither_third_party_distribution(site, isolated):
    for dist, ns in (("aab-evil-declared", "aab"), ("zzz-real", "zzz")):
        make_dist(site, dist, {ns: f"{dist.replace('-', '_')}._hooks"}, {}, ids={"Cart-v0": ns})
    with pytest.raises(PluginConflictError) as info:
        palaestra.make("Cart-v0")
    message = str(info.value)
    assert "aab-evil-declared and zzz-real" in message
    assert "PALAESTRA_PREFER=Cart=<distribution>" in message
    assert "PALAESTRA_PREFER=Cart=aab" not in message


def test_a_conflict_with_the_reference_suite_recommends_it(site, isolated):
    for dist, ns in (("aab-evil", "aab"), ("palaestra-classic-control", "classic_control")):
        make_dist(site, dist, {ns: f"{dist.replace('-', '_')}._hooks"}, {}, ids={"CartPole-v1": ns})
    with pytest.raises(PluginConflictError) as info:
        palaestra.make("CartPole-v1")
    message = str(info.value)
    assert "aab-evil and palaestra-classic-control" in message
    assert "PALAESTRA_PREFER=CartPole=palaestra-classic-control" in message
    assert "PALAESTRA_PREFER=CartPole=aab" not in message


UNATTRIBUTABLE_CALLS = {
    "thread": (
        "import threading\n"
        "t = threading.Thread(target=palaestra.register, args=('Cart-v0',), kwargs={'entry_point': 'sneaky_envs.env:Evil'})\n"
        "t.start(); t.join()"
    ),
    "executor": (
        "from concurrent.futures import ThreadPoolExecutor\n"
        "with ThreadPoolExecutor(1) as pool:\n"
        "    pool.submit(palaestra.register, 'Cart-v0', entry_point='sneaky_envs.env:Evil').result()"
    ),
    "exec as __main__": (
        "exec(\"import palaestra\\npalaestra.register('Cart-v0', entry_point='sneaky_envs.env:Evil')\", "
        "{'__name__': '__main__'})"
    ),
    "thread deleting": (
        "import threading\n"
        "t = threading.Thread(target=palaestra.registry.__delitem__, args=('Cart-v0',))\n"
        "t.start(); t.join()"
    ),
}


@pytest.mark.parametrize("when", ["import", "later"])
@pytest.mark.parametrize("call", UNATTRIBUTABLE_CALLS.values(), ids=UNATTRIBUTABLE_CALLS)
def test_a_plugin_cannot_pose_as_user_code_through_a_thread_or_exec(site, isolated, call, when):
    genuine_suite(site)
    # A thread's error stays in the thread; what matters is that the id stays the genuine one.
    code = "import palaestra, threading\nthreading.excepthook = lambda args: None\n" + call + "\n"
    if when == "import":
        impostor(site, hook_module=code)
    else:  # its env module, imported by a make long after the plugin loaded
        impostor(
            site,
            env_module="\n" + code,
            registrations='registrar.register("Own-v0", entry_point="sneaky_envs.env:CounterEnv")',
        )
    assert genuine_class() == "Genuine"
    # exec raises in the calling thread; a thread's error stays there. Gymnasium's override
    # warning is not an error here, or it would stop the write before the check under test.
    with warnings.catch_warnings(), contextlib.suppress(PluginError, NameNotFound, RegistrationError):
        warnings.simplefilter("ignore")
        isolated.loader.load_namespace("sneaky")
        palaestra.make("sneaky/Own-v0")
    assert genuine_class() == "Genuine"
    assert isolated.registry.owner("Cart-v0") == "real-suite"
    assert [spec.id for spec in isolated.registry.values()].count("Cart-v0") == 1
    assert genuine_class() == "Genuine"


def test_a_thread_started_on_register_is_told_how_to_override(site, isolated):
    genuine_suite(site)
    genuine_class()
    errors = []

    def run():
        try:
            palaestra.register("Cart-v0", entry_point="x:Y")
        except RegistrationError as e:
            errors.append(e)

    import threading

    # From a function of user code, in a thread: user code overrides, as in Gymnasium.
    def in_a_thread(function):
        thread = threading.Thread(target=function)
        thread.start()
        thread.join()

    with pytest.warns(UserWarning, match="Overriding environment Cart-v0"):
        in_a_thread(run)
    assert errors == [] and isolated.registry.owner("Cart-v0") is None

    isolated.registry.add(palaestra.EnvSpec("Free-v0", entry_point="x:Y"))
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(1) as pool:
        pool.submit(palaestra.register, "Free2-v0", entry_point="x:Y").result()  # a new id: fine
        with pytest.raises(RegistrationError) as info:
            pool.submit(palaestra.register, "real/Lab-v0", entry_point="x:Y").result()
    message = str(info.value)
    assert "'real/Lab-v0' belongs to real-suite" in message
    assert "call palaestra.register from a function of your script or module" in message
    assert genuine_class("real/Lab-v0") == "Genuine"
