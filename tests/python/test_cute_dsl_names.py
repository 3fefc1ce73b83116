"""CuTe DSL's keyword names for the same arguments (make_tiled_mma's atom_layout_mnk= and
permutation_mnk=, size's mode=, coalesce's target_profile=): the same results as tessera's own."""
import pytest

import tessera


def test_make_tiled_mma_with_cute_dsl_keywords():
    atom = "SM80_16x8x16_F32F16F16F32_TN"
    theirs = tessera.make_tiled_mma(atom, atom_layout_mnk=(2, 2, 1), permutation_mnk=(32, 32, 16))
    ours = tessera.make_tiled_mma(atom, (2, 2, 1), (32, 32, 16))
    assert theirs.size() == ours.size() == 128
    assert [theirs.tile_size_mnk(i) for i in range(3)] == [32, 32, 16]
    assert str(theirs.thrfrg("C", tessera.Layout("(32,32):(32,1)"))) == \
        str(ours.thrfrg("C", tessera.Layout("(32,32):(32,1)")))


def test_size_of_a_mode():
    L = tessera.Layout("((2,3),4):((1,2),6)")
    assert tessera.size(L) == 24
    assert tessera.size(L, mode=[0]) == 6
    assert tessera.size(L, mode=0) == 6
    assert tessera.size(L, mode=[0, 1]) == 3
    assert tessera.size((2, (3, 4)), mode=[1]) == 12


def test_coalesce_target_profile():
    L = tessera.Layout("(2,(1,6)):(1,(6,2))")
    assert str(tessera.coalesce(L, target_profile=(1, 1))) == str(tessera.coalesce(L, (1, 1)))
    assert str(tessera.coalesce(L, target_profile=(1, 1))) == "(2,6):(1,2)"
    assert str(tessera.coalesce(L)) == "12:1"


def test_both_spellings_of_one_argument_is_an_error():
    with pytest.raises(TypeError, match="atom_layout_mnk or its tessera name, not both"):
        tessera.make_tiled_mma("UniversalFMA", (2, 2, 1), atom_layout_mnk=(2, 2, 1))
    with pytest.raises(TypeError, match="target_profile"):
        tessera.coalesce(tessera.Layout("4:1"), (1,), target_profile=(1,))
