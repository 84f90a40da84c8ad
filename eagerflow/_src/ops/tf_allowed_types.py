"""TensorFlow's allowed-dtype lists, in the order TensorFlow's own messages print them.

TensorFlow refuses an input dtype with "Value for attr 'T' of bool is not in the list of allowed values:
bfloat16, half, float, ..." and the list follows the op's registration (AddV2 lists bfloat16 first, Less
starts at float, Relu ends with qint8), not any sorted order. shape_rules.check_dtype_in prints these
lists so our messages read like TensorFlow's. They are the op registry's data (TensorFlow 2.21's OpDefs,
attr by attr), written out here once: the lists name dtypes eagerflow does not have (the quantized
qint/quint types, variant), which we print anyway so the text matches TensorFlow's; what an op
*accepts* stays the `allowed` tuple its shape rule is given, plus bfloat16 where these lists name it
(shape_rules.check_dtype_in).

Names are TensorFlow's Python dtype names (float16, float32); eager messages translate them to the
C++ spelling (half, float) as TensorFlow does.
"""
from __future__ import annotations


ABS_T = "bfloat16 float16 float32 float64 int8 int16 int32 int64"
ACOS_T = "bfloat16 float16 float32 float64 complex64 complex128"
ADD_N_T = ("float32 float64 int32 uint8 int16 int8 complex64 int64 qint8 quint8 qint32 bfloat16 qint16 quint16 "
    "uint16 complex128 float16 uint32 uint64 variant")
ADD_V2_T = ("bfloat16 float16 float32 float64 uint8 uint16 uint32 uint64 int8 int16 int32 int64 complex64 "
    "complex128")
ALL_TIDX = "int32 int64"
ANGLE_T = "complex64 complex128"
ANGLE_TOUT = "float32 float64"
ARG_MAX_T = ("float32 float64 int32 uint8 int16 int8 int64 bfloat16 uint16 float16 uint32 uint64 qint8 quint8 "
    "qint32 qint16 quint16 bool")
ARG_MAX_TIDX = "int16 int32 int64"
ARG_MAX_OUTPUT_TYPE = "int16 uint16 int32 int64"
AS_STRING_T = ("float32 float64 int32 uint8 int16 int8 int64 bfloat16 uint16 float16 uint32 uint64 complex64 "
    "complex128 bool variant string")
ATAN2_T = "bfloat16 float16 float32 float64"
AVG_POOL_T = "float16 bfloat16 float32 float64"
BATCH_MAT_MUL_V2_T = ("bfloat16 float16 float32 float64 int16 int32 int64 uint8 uint16 uint32 uint64 complex64 "
    "complex128")
BIAS_ADD_T = ("float32 float64 int32 uint8 int16 int8 complex64 int64 qint8 quint8 qint32 bfloat16 qint16 quint16 "
    "uint16 complex128 float16 uint32 uint64")
BITWISE_AND_T = "int8 int16 int32 int64 uint8 uint16 uint32 uint64"
CHOLESKY_T = "float64 float32 float16 complex64 complex128"
CONJ_T = "complex64 complex128 variant"
CONV2_D_T = "float16 bfloat16 float32 float64 int32"
CROSS_T = "float32 float64 int32 uint8 int16 int8 int64 bfloat16 uint16 float16 uint32 uint64"
DENSE_BINCOUNT_T = "int32 int64 float32 float64"
DIV_NO_NAN_T = "float16 float32 bfloat16 float64 complex64 complex128"
FLOOR_DIV_T = ("bfloat16 float16 float32 float64 uint8 int8 uint16 int16 int32 uint32 uint64 int64 complex64 "
    "complex128")
FLOOR_MOD_T = "int8 int16 int32 int64 uint8 uint16 uint32 uint64 bfloat16 float16 float32 float64"
L_R_N_T = "float16 bfloat16 float32"
LOG_MATRIX_DETERMINANT_T = "float16 float32 float64 complex64 complex128"
MAT_MUL_T = "bfloat16 float16 float32 float64 int32 int64 uint8 uint16 uint32 uint64 complex64 complex128"
MATRIX_TRIANGULAR_SOLVE_T = "bfloat16 float64 float32 float16 complex64 complex128"
MAX_T = ("float32 float64 int32 uint8 int16 int8 int64 bfloat16 uint16 float16 uint32 uint64 qint8 quint8 "
    "qint32 qint16 quint16")
MAX_POOL_T = "float16 bfloat16 float32 float64 int32 int64 uint8 int16 int8 uint16 qint8"
MAXIMUM_T = "bfloat16 float16 float32 float64 int8 uint8 int16 uint16 int32 uint32 int64 uint64"
NEG_T = "bfloat16 float16 float32 float64 int8 int16 int32 int64 complex64 complex128"
NEXT_AFTER_T = "float64 float32"
ONE_HOT_TI = "uint8 int8 int32 int64"
ONES_LIKE_T = ("bfloat16 float16 float32 float64 int8 uint8 int16 uint16 int32 uint32 int64 uint64 complex64 "
    "complex128 bool")
POW_T = "bfloat16 float32 float16 float64 int8 int16 int32 int64 complex64 complex128"
RANDOM_GAMMA_T = "float16 float32 float64"
RANDOM_POISSON_V2_R = "float16 float32 float64 int32 int64"
RANGE_TIDX = "bfloat16 float16 float32 float64 int8 int16 int32 int64 uint16 uint32 uint64"
RELU_T = "float32 float64 int32 uint8 int16 int8 int64 bfloat16 uint16 float16 uint32 uint64 qint8"
RESIZE_AREA_T = "int8 uint8 int16 uint16 int32 int64 float16 float32 float64 bfloat16"
RESIZE_BILINEAR_T = "int8 uint8 int16 uint16 int32 int64 bfloat16 float16 float32 float64 bfloat16"
RESIZE_BILINEAR_GRAD_T = "float32 bfloat16 float16 float64"
RESIZE_NEAREST_NEIGHBOR_GRAD_T = "uint8 int8 int32 float16 float32 float64 bfloat16"
REVERSE_V2_T = ("uint8 int8 uint16 int16 int32 uint32 int64 uint64 bool bfloat16 float16 float32 float64 complex64 "
    "complex128 string")
SCALE_AND_TRANSLATE_T = "int8 uint8 int16 uint16 int32 int64 bfloat16 float16 float32 float64"
SCALE_AND_TRANSLATE_GRAD_T = "float32"
SPLIT_V_TLEN = "int8 int32 int64"
SQUARE_T = ("bfloat16 float16 float32 float64 int8 int16 int32 int64 uint8 uint16 uint32 uint64 complex64 "
    "complex128")
SQUARED_DIFFERENCE_T = "bfloat16 float16 float32 float64 int32 int64 complex64 complex128"
STATELESS_RANDOM_UNIFORM_FULL_INT_V2_DTYPE = "int32 int64 uint32 uint64"
STRING_TO_NUMBER_OUT_TYPE = "float32 float64 int32 int64 uint32 uint64"
SUB_T = "bfloat16 float16 float32 float64 uint8 int8 uint16 int16 int32 int64 complex64 complex128 uint32 uint64"
TENSOR_SCATTER_UPDATE_TINDICES = "int16 int32 int64 uint16"
TRIDIAGONAL_MAT_MUL_T = "float64 float32 complex64 complex128"
TRUNCATE_MOD_T = "int32 int64 bfloat16 float16 float32 float64"
WHERE_T = ("float32 float64 int32 uint8 int16 int8 complex64 int64 qint8 quint8 qint32 bfloat16 qint16 quint16 "
    "uint16 complex128 float16 uint32 uint64 bool")
XLOGY_T = "float16 bfloat16 float32 float64 complex64 complex128"

# op name -> {attr name: its allowed dtypes}
_BY_OP = {
    "Abs": {"T": ABS_T},
    "Acos": {"T": ACOS_T},
    "Acosh": {"T": ACOS_T},
    "AddN": {"T": ADD_N_T},
    "AddV2": {"T": ADD_V2_T},
    "All": {"Tidx": ALL_TIDX},
    "Angle": {"T": ANGLE_T, "Tout": ANGLE_TOUT},
    "Any": {"Tidx": ALL_TIDX},
    "ArgMax": {"T": ARG_MAX_T, "Tidx": ARG_MAX_TIDX, "output_type": ARG_MAX_OUTPUT_TYPE},
    "ArgMin": {"T": ARG_MAX_T, "Tidx": ALL_TIDX, "output_type": ALL_TIDX},
    "AsString": {"T": AS_STRING_T},
    "Asin": {"T": ACOS_T},
    "Asinh": {"T": ACOS_T},
    "Atan": {"T": ACOS_T},
    "Atan2": {"T": ATAN2_T},
    "Atanh": {"T": ACOS_T},
    "AvgPool": {"T": AVG_POOL_T},
    "AvgPoolGrad": {"T": AVG_POOL_T},
    "BatchMatMulV2": {"T": BATCH_MAT_MUL_V2_T},
    "BesselI0": {"T": ATAN2_T},
    "BesselI0e": {"T": ATAN2_T},
    "BesselI1": {"T": ATAN2_T},
    "BesselI1e": {"T": ATAN2_T},
    "Betainc": {"T": ANGLE_TOUT},
    "BiasAdd": {"T": BIAS_ADD_T},
    "BiasAddGrad": {"T": BIAS_ADD_T},
    "Bitcast": {"T": "bfloat16 float16 float32 float64 int64 int32 uint8 uint16 uint32 uint64 int8 int16 complex64 "
                     "complex128 qint8 quint8 qint16 quint16 qint32",
                "type": "bfloat16 float16 float32 float64 int64 int32 uint8 uint16 uint32 uint64 int8 int16 complex64 "
                        "complex128 qint8 quint8 qint16 quint16 qint32"},
    "BitwiseAnd": {"T": BITWISE_AND_T},
    "BitwiseOr": {"T": BITWISE_AND_T},
    "BitwiseXor": {"T": BITWISE_AND_T},
    "BroadcastTo": {"Tidx": ALL_TIDX},
    "Ceil": {"T": ATAN2_T},
    "CheckNumerics": {"T": ATAN2_T},
    "Cholesky": {"T": CHOLESKY_T},
    "ClipByValue": {"T": BIAS_ADD_T},
    "ComplexAbs": {"T": ANGLE_T, "Tout": ANGLE_TOUT},
    "ConcatV2": {"Tidx": ALL_TIDX},
    "Conj": {"T": CONJ_T},
    "Conv2D": {"T": CONV2_D_T},
    "Conv2DBackpropFilter": {"T": AVG_POOL_T},
    "Conv2DBackpropInput": {"T": CONV2_D_T},
    "Cos": {"T": ACOS_T},
    "Cosh": {"T": ACOS_T},
    "Cross": {"T": CROSS_T},
    "Cumprod": {"T": BIAS_ADD_T, "Tidx": ALL_TIDX},
    "Cumsum": {"T": BIAS_ADD_T, "Tidx": ALL_TIDX},
    "CumulativeLogsumexp": {"T": ATAN2_T, "Tidx": ALL_TIDX},
    "DenseBincount": {"T": DENSE_BINCOUNT_T, "Tidx": ALL_TIDX},
    "DepthwiseConv2dNative": {"T": AVG_POOL_T},
    "DepthwiseConv2dNativeBackpropFilter": {"T": AVG_POOL_T},
    "DepthwiseConv2dNativeBackpropInput": {"T": AVG_POOL_T},
    "Digamma": {"T": ATAN2_T},
    "DivNoNan": {"T": DIV_NO_NAN_T},
    "Elu": {"T": AVG_POOL_T},
    "Erf": {"T": ATAN2_T},
    "Erfc": {"T": ATAN2_T},
    "Erfinv": {"T": ATAN2_T},
    "Exp": {"T": ACOS_T},
    "ExpandDims": {"Tdim": ALL_TIDX},
    "Expm1": {"T": ACOS_T},
    "Fill": {"index_type": ALL_TIDX},
    "Floor": {"T": ATAN2_T},
    "FloorDiv": {"T": FLOOR_DIV_T},
    "FloorMod": {"T": FLOOR_MOD_T},
    "GatherNd": {"Tindices": ARG_MAX_TIDX},
    "GatherV2": {"Taxis": ALL_TIDX, "Tindices": ARG_MAX_TIDX},
    "Greater": {"T": CROSS_T},
    "GreaterEqual": {"T": CROSS_T},
    "Igamma": {"T": ATAN2_T},
    "IgammaGradA": {"T": ANGLE_TOUT},
    "Igammac": {"T": ATAN2_T},
    "Imag": {"T": ANGLE_T, "Tout": ANGLE_TOUT},
    "InTopKV2": {"T": ALL_TIDX},
    "Invert": {"T": BITWISE_AND_T},
    "InvertPermutation": {"T": ALL_TIDX},
    "IsFinite": {"T": ATAN2_T},
    "IsInf": {"T": ATAN2_T},
    "IsNan": {"T": ATAN2_T},
    "L2Loss": {"T": AVG_POOL_T},
    "LRN": {"T": L_R_N_T},
    "LRNGrad": {"T": L_R_N_T},
    "LeakyRelu": {"T": AVG_POOL_T},
    "LeftShift": {"T": BITWISE_AND_T},
    "Less": {"T": CROSS_T},
    "LessEqual": {"T": CROSS_T},
    "Lgamma": {"T": ATAN2_T},
    "LinSpace": {"T": ATAN2_T, "Tidx": ALL_TIDX},
    "Log": {"T": ACOS_T},
    "Log1p": {"T": ACOS_T},
    "LogMatrixDeterminant": {"T": LOG_MATRIX_DETERMINANT_T},
    "LogSoftmax": {"T": AVG_POOL_T},
    "LowerBound": {"out_type": ALL_TIDX},
    "MatMul": {"T": MAT_MUL_T},
    "MatrixBandPart": {"Tindex": ALL_TIDX},
    "MatrixDeterminant": {"T": LOG_MATRIX_DETERMINANT_T},
    "MatrixInverse": {"T": CHOLESKY_T},
    "MatrixSolve": {"T": CHOLESKY_T},
    "MatrixTriangularSolve": {"T": MATRIX_TRIANGULAR_SOLVE_T},
    "Max": {"T": MAX_T, "Tidx": ALL_TIDX},
    "MaxPool": {"T": MAX_POOL_T},
    "MaxPoolGrad": {"T": CROSS_T},
    "MaxPoolGradGrad": {"T": CROSS_T},
    "Maximum": {"T": MAXIMUM_T},
    "Mean": {"T": BIAS_ADD_T, "Tidx": ALL_TIDX},
    "Min": {"T": MAX_T, "Tidx": ALL_TIDX},
    "Minimum": {"T": MAXIMUM_T},
    "MirrorPad": {"Tpaddings": ALL_TIDX},
    "MirrorPadGrad": {"Tpaddings": ALL_TIDX},
    "Mul": {"T": FLOOR_DIV_T},
    "Multinomial": {"T": CROSS_T, "output_dtype": ALL_TIDX},
    "Ndtri": {"T": ATAN2_T},
    "Neg": {"T": NEG_T},
    "NextAfter": {"T": NEXT_AFTER_T},
    "OneHot": {"TI": ONE_HOT_TI},
    "OnesLike": {"T": ONES_LIKE_T},
    "Pad": {"Tpaddings": ALL_TIDX},
    "PadV2": {"Tpaddings": ALL_TIDX},
    "Polygamma": {"T": ANGLE_TOUT},
    "Pow": {"T": POW_T},
    "Prod": {"T": BIAS_ADD_T, "Tidx": ALL_TIDX},
    "Qr": {"T": CHOLESKY_T},
    "RandomGamma": {"S": ALL_TIDX, "T": RANDOM_GAMMA_T},
    "RandomGammaGrad": {"T": ANGLE_TOUT},
    "RandomPoissonV2": {"R": RANDOM_POISSON_V2_R, "S": ALL_TIDX, "dtype": RANDOM_POISSON_V2_R},
    "RandomStandardNormal": {"T": ALL_TIDX, "dtype": AVG_POOL_T},
    "RandomUniform": {"T": ALL_TIDX, "dtype": AVG_POOL_T},
    "RandomUniformInt": {"T": ALL_TIDX, "Tout": ALL_TIDX},
    "Range": {"Tidx": RANGE_TIDX},
    "Real": {"T": ANGLE_T, "Tout": ANGLE_TOUT},
    "RealDiv": {"T": FLOOR_DIV_T},
    "Reciprocal": {"T": NEG_T},
    "Relu": {"T": RELU_T},
    "Relu6": {"T": CROSS_T},
    "ReluGrad": {"T": CROSS_T},
    "Reshape": {"Tshape": ALL_TIDX},
    "ResizeArea": {"T": RESIZE_AREA_T},
    "ResizeBicubic": {"T": RESIZE_AREA_T},
    "ResizeBicubicGrad": {"T": ANGLE_TOUT},
    "ResizeBilinear": {"T": RESIZE_BILINEAR_T},
    "ResizeBilinearGrad": {"T": RESIZE_BILINEAR_GRAD_T},
    "ResizeNearestNeighbor": {"T": RESIZE_AREA_T},
    "ResizeNearestNeighborGrad": {"T": RESIZE_NEAREST_NEIGHBOR_GRAD_T},
    "ResourceCountUpTo": {"T": ALL_TIDX},
    "ResourceScatterAdd": {"Tindices": ALL_TIDX, "dtype": BIAS_ADD_T},
    "ResourceScatterDiv": {"Tindices": ALL_TIDX, "dtype": BIAS_ADD_T},
    "ResourceScatterMax": {"Tindices": ALL_TIDX, "dtype": BIAS_ADD_T},
    "ResourceScatterMin": {"Tindices": ALL_TIDX, "dtype": BIAS_ADD_T},
    "ResourceScatterMul": {"Tindices": ALL_TIDX, "dtype": BIAS_ADD_T},
    "ResourceScatterNdAdd": {"Tindices": ALL_TIDX},
    "ResourceScatterNdMax": {"Tindices": ALL_TIDX},
    "ResourceScatterNdMin": {"Tindices": ALL_TIDX},
    "ResourceScatterNdSub": {"Tindices": ALL_TIDX},
    "ResourceScatterNdUpdate": {"Tindices": ALL_TIDX},
    "ResourceScatterSub": {"Tindices": ALL_TIDX, "dtype": BIAS_ADD_T},
    "ResourceScatterUpdate": {"Tindices": ALL_TIDX},
    "ResourceStridedSliceAssign": {"Index": ALL_TIDX},
    "ReverseV2": {"T": REVERSE_V2_T, "Tidx": ALL_TIDX},
    "RightShift": {"T": BITWISE_AND_T},
    "Rint": {"T": ATAN2_T},
    "Round": {"T": NEG_T},
    "Rsqrt": {"T": ACOS_T},
    "ScaleAndTranslate": {"T": SCALE_AND_TRANSLATE_T},
    "ScaleAndTranslateGrad": {"T": SCALE_AND_TRANSLATE_GRAD_T},
    "ScatterNd": {"Tindices": ARG_MAX_TIDX},
    "SegmentMax": {"T": CROSS_T, "Tindices": ALL_TIDX},
    "SegmentMin": {"T": CROSS_T, "Tindices": ALL_TIDX},
    "SegmentProd": {"T": BIAS_ADD_T, "Tindices": ALL_TIDX},
    "SegmentSum": {"T": BIAS_ADD_T, "Tindices": ALL_TIDX},
    "SelfAdjointEigV2": {"T": CHOLESKY_T},
    "Selu": {"T": AVG_POOL_T},
    "Shape": {"out_type": ALL_TIDX},
    "Sigmoid": {"T": ACOS_T},
    "Sign": {"T": NEG_T},
    "Sin": {"T": ACOS_T},
    "Sinh": {"T": ACOS_T},
    "Size": {"out_type": ALL_TIDX},
    "Slice": {"Index": ALL_TIDX},
    "Softmax": {"T": AVG_POOL_T},
    "SoftmaxCrossEntropyWithLogits": {"T": AVG_POOL_T},
    "Softplus": {"T": AVG_POOL_T},
    "Softsign": {"T": AVG_POOL_T},
    "SparseSoftmaxCrossEntropyWithLogits": {"T": AVG_POOL_T, "Tlabels": ALL_TIDX},
    "SplitV": {"Tlen": SPLIT_V_TLEN},
    "Sqrt": {"T": ACOS_T},
    "Square": {"T": SQUARE_T},
    "SquaredDifference": {"T": SQUARED_DIFFERENCE_T},
    "StatelessMultinomial": {"T": CROSS_T, "Tseed": ALL_TIDX, "output_dtype": ALL_TIDX},
    "StatelessRandomGetKeyCounter": {"Tseed": ALL_TIDX},
    "StatelessRandomNormalV2": {"Tshape": ALL_TIDX, "dtype": AVG_POOL_T},
    "StatelessRandomUniformFullIntV2": {"Tshape": ALL_TIDX, "dtype": STATELESS_RANDOM_UNIFORM_FULL_INT_V2_DTYPE},
    "StatelessRandomUniformIntV2": {"Tshape": ALL_TIDX, "dtype": STATELESS_RANDOM_UNIFORM_FULL_INT_V2_DTYPE},
    "StatelessRandomUniformV2": {"Tshape": ALL_TIDX, "dtype": AVG_POOL_T},
    "StatelessTruncatedNormalV2": {"Tshape": ALL_TIDX, "dtype": AVG_POOL_T},
    "StridedSlice": {"Index": ARG_MAX_TIDX},
    "StridedSliceGrad": {"Index": ALL_TIDX},
    "StringToNumber": {"out_type": STRING_TO_NUMBER_OUT_TYPE},
    "Sub": {"T": SUB_T},
    "Substr": {"T": ALL_TIDX},
    "Sum": {"T": BIAS_ADD_T, "Tidx": ALL_TIDX},
    "Svd": {"T": CHOLESKY_T},
    "Tan": {"T": ACOS_T},
    "Tanh": {"T": ACOS_T},
    "TensorListConcatV2": {"shape_type": ALL_TIDX},
    "TensorListFromTensor": {"shape_type": ALL_TIDX},
    "TensorListGetItem": {"Tshape": ALL_TIDX},
    "TensorListReserve": {"shape_type": ALL_TIDX},
    "TensorListSplit": {"shape_type": ALL_TIDX},
    "TensorScatterAdd": {"Tindices": ALL_TIDX},
    "TensorScatterMax": {"Tindices": ALL_TIDX},
    "TensorScatterMin": {"Tindices": ALL_TIDX},
    "TensorScatterSub": {"Tindices": ALL_TIDX},
    "TensorScatterUpdate": {"Tindices": TENSOR_SCATTER_UPDATE_TINDICES},
    "Tile": {"Tmultiples": ALL_TIDX},
    "TopKV2": {"T": CROSS_T, "Tk": ARG_MAX_TIDX, "index_type": ARG_MAX_TIDX},
    "Transpose": {"Tperm": ALL_TIDX},
    "TridiagonalMatMul": {"T": TRIDIAGONAL_MAT_MUL_T},
    "TridiagonalSolve": {"T": TRIDIAGONAL_MAT_MUL_T},
    "TruncateDiv": {"T": FLOOR_DIV_T},
    "TruncateMod": {"T": TRUNCATE_MOD_T},
    "TruncatedNormal": {"T": ALL_TIDX, "dtype": AVG_POOL_T},
    "Unique": {"out_idx": ALL_TIDX},
    "UniqueWithCounts": {"out_idx": ALL_TIDX},
    "UnsortedSegmentMax": {"T": CROSS_T, "Tindices": ALL_TIDX, "Tnumsegments": ALL_TIDX},
    "UnsortedSegmentMin": {"T": CROSS_T, "Tindices": ALL_TIDX, "Tnumsegments": ALL_TIDX},
    "UnsortedSegmentProd": {"T": BIAS_ADD_T, "Tindices": ALL_TIDX, "Tnumsegments": ALL_TIDX},
    "UnsortedSegmentSum": {"T": BIAS_ADD_T, "Tindices": ARG_MAX_TIDX, "Tnumsegments": ALL_TIDX},
    "UpperBound": {"out_type": ALL_TIDX},
    "Where": {"T": WHERE_T},
    "Xlogy": {"T": XLOGY_T},
    "Zeta": {"T": ANGLE_TOUT},
}


def tf_allowed_names(op_name: str, attr: str = "T") -> list[str] | None:
    """TensorFlow's allowed dtypes for `attr` of `op_name`, in TensorFlow's order (None: not listed)."""
    names = _BY_OP.get(op_name, {}).get(attr)
    return names.split() if names is not None else None
