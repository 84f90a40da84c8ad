"""tf.strings.to_hash_bucket_fast / to_hash_bucket_strong and tf.fingerprint against TensorFlow 2.21.

The inputs are rebuilt here from a fixed NumPy RandomState stream (random bytes of every length
0..299, then words, UTF-8 text and long runs); the expected numbers are what TensorFlow 2.21 gave
for exactly these inputs (FarmHash Fingerprint64 and SipHash-2-4 are fixed algorithms, so any
mismatch is a bug in ours). Lengths around 16, 32 and 64 bytes and multiples of 64 cross every
branch of Fingerprint64.
"""
import numpy as np
import pytest

import eagerflow as tf


def _inputs():
    rng = np.random.RandomState(1)
    strings = [b""] + [bytes(rng.randint(0, 256, size=n).astype(np.uint8)) for n in range(1, 300)]
    strings += [("word%d" % i).encode() for i in range(50)]
    strings += ["héllo wörld ünïcode".encode(), b"a" * 64, b"b" * 65, b"c" * 128, b"d" * 129, b"e" * 1000]
    return np.array(strings, dtype=object)


# tf.strings.to_hash_bucket_fast(_inputs(), 1000003)
BUCKETS_1000003 = [
    377723, 658874, 244011, 808573, 19011, 386948, 294663, 403187, 59241, 537197, 684364, 16043, 410707, 963089,
    30875, 328713, 897039, 552387, 591256, 863794, 572950, 601576, 673519, 897441, 425020, 56150, 626564,
    153592, 43706, 112392, 377326, 82589, 665701, 620614, 934846, 923600, 726789, 618662, 367631, 795720, 59975,
    765683, 905101, 456528, 323870, 296946, 870398, 538079, 478046, 239190, 433023, 973105, 231608, 833458,
    155135, 422317, 742348, 862594, 130479, 815512, 617511, 872612, 354506, 323199, 813605, 713498, 521317,
    519081, 738918, 867679, 379241, 764379, 167038, 567757, 780355, 552975, 398229, 107744, 613641, 492570,
    312686, 52048, 383458, 96374, 417846, 605945, 933208, 579287, 133730, 362946, 327575, 540078, 966914,
    897796, 955158, 320669, 550309, 111156, 878396, 761240, 913132, 245410, 443109, 71193, 77722, 955669,
    462888, 743082, 910799, 553142, 724117, 682750, 633346, 977928, 242187, 289458, 971763, 827222, 352684,
    763249, 84500, 80640, 496295, 913742, 732502, 177168, 163051, 601551, 262730, 817733, 738367, 525799,
    789024, 8653, 626378, 700929, 781004, 660930, 12182, 515007, 919816, 350124, 960820, 895958, 604128, 137802,
    496370, 695537, 797883, 68043, 107172, 653867, 834220, 111678, 617678, 951824, 846237, 166048, 756667,
    231040, 342514, 377955, 478213, 396255, 881156, 99798, 99302, 665059, 251901, 990679, 656755, 322633,
    654582, 313201, 943670, 225126, 948302, 767651, 323372, 416466, 133135, 862365, 211062, 122038, 499736,
    811750, 297304, 362508, 470684, 406646, 658397, 918671, 971135, 595141, 465889, 719352, 969985, 742818,
    406970, 271477, 663655, 38211, 598527, 328767, 942422, 818370, 807234, 617117, 934525, 553623, 138466,
    250720, 401042, 437458, 145155, 159417, 905547, 924359, 934982, 202128, 817148, 216171, 406628, 778117,
    108249, 316877, 503245, 277033, 747850, 59082, 811614, 676597, 303354, 18689, 630779, 718532, 731005,
    339913, 366064, 754199, 961922, 99346, 59938, 487538, 133722, 996080, 239185, 604807, 592674, 382745,
    584192, 29030, 494564, 11473, 509690, 389680, 544549, 480068, 765103, 500266, 809835, 412935, 738696,
    388230, 341920, 669194, 415830, 29636, 639570, 934141, 783813, 2218, 592801, 6161, 129398, 842821, 938213,
    943844, 293514, 116147, 589850, 467056, 170236, 962577, 624436, 71561, 268856, 758374, 820367, 962577,
    28313, 662304, 954946, 196207, 189768, 663795, 193395, 372792, 432222, 233419, 701387, 972617, 265529,
    850200, 742128, 104100, 752025, 583100, 142718, 749876, 172900, 607983, 940856, 338053, 20624, 414279,
    116915, 148083, 546436, 688409, 500832, 958248, 516398, 854714, 698268, 186028, 470726, 38202, 70128,
    570897, 359110, 926852, 648275, 887935, 77515, 331357, 329330, 301983, 10781, 47696, 109111, 420284, 796532,
    872592, 927351, 272039, 220684, 168915, 685782, 211953, 411774, 745537, 664211, 246656, 7647, 525151
]
# tf.strings.to_hash_bucket_fast(_inputs(), 2**62 + 1)[:60]: close to the raw 64-bit fingerprint
BUCKETS_2_62_PLUS_1 = [
    1936946117179621453, 1968751127412322402, 2427024045539699806, 1764786938967904767, 2234606273165889440,
    3432287338835837616, 4207346621474293079, 1611955269443190944, 4242201461220587859, 175741922838048692,
    2333435618676701862, 1381264629928799140, 90097203438372476, 4504886685965964108, 4507596060012804998,
    4061298265533060719, 3813765198264655029, 363678082275013100, 426798819160532213, 1288421487242729761,
    262380871526313089, 493328941815474056, 358037865326209492, 2615689269580489702, 3575465903077279809,
    2614292228882214237, 4057240033810537598, 3510923560126560409, 3396171993578783641, 2330690452762656856,
    1136834961160029321, 208605108408692702, 647813634967227278, 1815458949583617264, 4599768155353003113,
    2252953319955931601, 2187931537175133970, 2936783919781271683, 2568152444156749125, 3513798854246059016,
    2868990110371732584, 1944017974680518268, 2987613421514768185, 4300183176287608512, 3218626900402057520,
    3658637476428123246, 4359006274214949084, 4282438503861994815, 4081160181966455940, 3179637753818046317,
    3079265582621954563, 1364502329574168323, 318220833041866754, 1200235813987960312, 2280376136675366492,
    2951697211033977205, 3987622971297767740, 2916935138234511940, 488820475751320689, 1906908047017281423
]
# tf.fingerprint(_inputs()) rows (little-endian bytes of Fingerprint64), by input index
FINGERPRINTS = {
    0: '4f40902f3b6ae19a',
    1: '62b08f30b868521b',
    2: '5facb9af8285ae61',
    3: '00526ee95ec87d58',
    4: 'a18fe9e490ea025f',
    5: 'b282614e26efa1af',
    7: 'a300fbecc6d05ed6',
    8: '5539b2b9c053dfba',
    9: 'b6efe702595c7082',
    15: '7216023c41a15cf8',
    16: 'b8dc4fdb3d37edf4',
    17: 'eff198fa490b0cc5',
    31: 'df2f08a93d1de542',
    32: '914be098117ffdc8',
    33: 'f33c3cc24bce31d9',
    63: '19c44a2d936fca6e',
    64: 'c0834226ef483915',
    65: 'd74bc409d929f0a5',
    66: '5dc4eacf6eeac97d',
    127: 'e15385c60200850b',
    128: '854fe08f0d104dff',
    129: 'd324bdac003fba25',
    130: 'e1f79898dc5fb156',
    200: '02c562b4f5bd1aba',
    299: 'fa3958c089638eb9',
    300: 'b39f64379a5c2d0e',
    350: '4a61a7770f2dda49',
    351: '79639abdce24c951',
    352: '976f4e97d6e6c58b',
    353: '7a387a33dde5f5a7',
    354: 'a741d025572485fb',
    355: '532ac7225664a383',
}


def test_to_hash_bucket_fast_matches_tensorflow():
    assert tf.strings.to_hash_bucket_fast(_inputs(), 1000003).numpy().tolist() == BUCKETS_1000003
    assert tf.strings.to_hash_bucket_fast(_inputs()[:60], 2**62 + 1).numpy().tolist() == BUCKETS_2_62_PLUS_1


def test_fingerprint_of_strings_matches_tensorflow():
    out = tf.fingerprint(_inputs())
    assert out.dtype == tf.uint8 and out.shape == (356, 8)
    rows = out.numpy()
    for i, expected in FINGERPRINTS.items():
        assert bytes(rows[i]).hex() == expected, i


def test_fingerprint_rows():
    """Numeric rows hash their raw bytes; a row of several strings hashes their fingerprints."""
    def hexes(x):
        return [bytes(r).hex() for r in tf.fingerprint(x).numpy()]
    assert hexes(tf.constant([[1, 2], [3, 4]], tf.int32)) == ["4c12fd85a8ccf00a", "fea23cf067f435ff"]
    assert hexes(tf.constant([1.5, -2.0], tf.float32)) == ["40b53848dfe0bd48", "ccb9d544728eca3e"]
    assert hexes(tf.constant([[True, False]])) == ["ecd07633908e3d00"]
    assert hexes(tf.constant(np.arange(12, dtype=np.float64).reshape(2, 3, 2))) == ["42d734fb7f474891",
                                                                                   "76993695a1f519fe"]
    assert hexes(tf.constant([[b"ab", b"cd"], [b"", b"xyz"]])) == ["db2576fbd0b0ec38", "c120d298a7ddbae4"]
    assert hexes(tf.constant([[b"ab"], [b"cd"]])) == ["1ea5ad42526e8daa", "74536f0be286c928"]
    assert hexes(tf.constant([[[b"a"], [b"b"]]])) == ["7a403ba9883c3753"]
    assert hexes(tf.zeros((2, 0), tf.int32)) == ["4f40902f3b6ae19a"] * 2
    assert tf.fingerprint(tf.constant([], tf.string)).shape == (0, 8)


def test_to_hash_bucket_strong_matches_tensorflow():
    words = ["", "a", "hello world", "x" * 100, "abcdefgh", "abcdefghi"]
    assert tf.strings.to_hash_bucket_strong(words, 2**62, key=[1, 2]).numpy().tolist() == [
        443797209252341627, 546566331822570742, 1015233985318741638, 1638981394980189463, 2649018002260510108,
        545485191183657959]
    assert tf.strings.to_hash_bucket_strong(words[:3], 2**62, key=[0x0706050403020100, 0x0F0E0D0C0B0A0908]
                                            ).numpy().tolist() == [3634364526009126449, 3144613055062689994,
                                                                   3265489926099916290]


def test_traced_graph_and_shapes():
    fn = tf.function(lambda x: (tf.strings.to_hash_bucket_fast(x, 7), tf.fingerprint(x)))
    concrete = fn.get_concrete_function(tf.TensorSpec([None], tf.string))
    types = [op.type for op in concrete.graph.get_operations()]
    assert "StringToHashBucketFast" in types and "Fingerprint" in types
    assert [o.shape.as_list() for o in concrete.structured_outputs] == [[None], [None, 8]]
    eager = tf.strings.to_hash_bucket_fast(_inputs()[:40], 7).numpy()
    np.testing.assert_array_equal(fn(tf.constant(_inputs()[:40]))[0].numpy(), eager)


def test_errors_in_tensorflow_words():
    with pytest.raises(tf.errors.InvalidArgumentError, match="Value for attr 'num_buckets' of 0 must be at least "
                                                           "minimum 1"):
        tf.strings.to_hash_bucket_fast(["a"], 0)
    with pytest.raises(ValueError, match="Attr 'num_buckets' of 'StringToHashBucketFast' Op passed 0 less than "
                                         "minimum 1."):
        tf.function(lambda: tf.strings.to_hash_bucket_fast(["a"], 0)).get_concrete_function()
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"cannot compute StringToHashBucketFast as input "
                                                           r"#0\(zero-based\) was expected to be a string tensor "
                                                           r"but is a int32 tensor"):
        tf.strings.to_hash_bucket_fast([1], 3)
    with pytest.raises(TypeError, match="Input 'input' of 'StringToHashBucketFast' Op has type int32 that does "
                                        "not match expected type of string."):
        tf.function(lambda: tf.strings.to_hash_bucket_fast(tf.constant([1]), 3)).get_concrete_function()
    with pytest.raises(tf.errors.InvalidArgumentError, match="`data` should have at least one dimension: "):
        tf.fingerprint(tf.constant(1))
    with pytest.raises(ValueError, match="Shape must be at least rank 1 but is rank 0"):
        tf.function(lambda: tf.fingerprint(tf.constant(1))).get_concrete_function()
    with pytest.raises(tf.errors.InvalidArgumentError, match="Unsupported fingerprint method: md5"):
        tf.fingerprint(tf.constant([1]), method="md5")
