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

The lists are named by what they hold, in the order they hold it (that order is the text of TensorFlow's
messages): FLOAT is bfloat16 float16 float32 float64, INT int8..int64, UINT uint8..uint64, INTS_BY_WIDTH int8
uint8 int16 uint16 .. int64 uint64, COMPLEX complex64 complex128, and NUMBER_TYPES / REAL_NUMBER_TYPES are
TensorFlow's `numbertypes` / `realnumbertypes` in its DataType enum order (float32 float64 int32 uint8 ...); a
list in any other order spells its dtypes out (F16_BF16_F32_F64 is float16 bfloat16 float32 float64).
"""
from __future__ import annotations


BF16_F32_F16_F64_INT_COMPLEX = "bfloat16 float32 float16 float64 int8 int16 int32 int64 complex64 complex128"
BF16_F64_F32_F16_COMPLEX = "bfloat16 float64 float32 float16 complex64 complex128"
COMPLEX = "complex64 complex128"
COMPLEX_VARIANT = "complex64 complex128 variant"
F16_BF16_F32 = "float16 bfloat16 float32"
F16_BF16_F32_F64 = "float16 bfloat16 float32 float64"
F16_BF16_F32_F64_COMPLEX = "float16 bfloat16 float32 float64 complex64 complex128"
F16_BF16_F32_F64_INT32 = "float16 bfloat16 float32 float64 int32"
F16_BF16_F32_F64_INT32_INT64_UINT8_INT16_INT8_UINT16_QINT8 = (
    "float16 bfloat16 float32 float64 int32 int64 uint8 int16 int8 uint16 qint8")
F16_F32_BF16_F64_COMPLEX = "float16 float32 bfloat16 float64 complex64 complex128"
F16_F32_F64 = "float16 float32 float64"
F16_F32_F64_COMPLEX = "float16 float32 float64 complex64 complex128"
F16_F32_F64_INT32_INT64 = "float16 float32 float64 int32 int64"
F32_BF16_F16_F64 = "float32 bfloat16 float16 float64"
F64_F32_COMPLEX = "float64 float32 complex64 complex128"
F64_F32_F16_COMPLEX = "float64 float32 float16 complex64 complex128"
FLOAT = "bfloat16 float16 float32 float64"
FLOAT32 = "float32"
FLOAT32_FLOAT64 = "float32 float64"
FLOAT32_FLOAT64_INT32_INT64_UINT32_UINT64 = "float32 float64 int32 int64 uint32 uint64"
FLOAT64_FLOAT32 = "float64 float32"
FLOAT_COMPLEX = "bfloat16 float16 float32 float64 complex64 complex128"
FLOAT_INT = "bfloat16 float16 float32 float64 int8 int16 int32 int64"
FLOAT_INT16_INT32_INT64_UINT_COMPLEX = (
    "bfloat16 float16 float32 float64 int16 int32 int64 uint8 uint16 uint32 uint64 complex64 complex128")
FLOAT_INT32_INT64_COMPLEX = "bfloat16 float16 float32 float64 int32 int64 complex64 complex128"
FLOAT_INT32_INT64_UINT_COMPLEX = (
    "bfloat16 float16 float32 float64 int32 int64 uint8 uint16 uint32 uint64 complex64 complex128")
FLOAT_INTS_BY_WIDTH = "bfloat16 float16 float32 float64 int8 uint8 int16 uint16 int32 uint32 int64 uint64"
FLOAT_INTS_BY_WIDTH_COMPLEX_BOOL = (
    "bfloat16 float16 float32 float64 int8 uint8 int16 uint16 int32 uint32 int64 uint64 complex64 complex128 bool")
FLOAT_INT_COMPLEX = "bfloat16 float16 float32 float64 int8 int16 int32 int64 complex64 complex128"
FLOAT_INT_UINT16_UINT32_UINT64 = "bfloat16 float16 float32 float64 int8 int16 int32 int64 uint16 uint32 uint64"
FLOAT_INT_UINT_COMPLEX = (
    "bfloat16 float16 float32 float64 int8 int16 int32 int64 uint8 uint16 uint32 uint64 complex64 complex128")
FLOAT_UINT8_INT8_UINT16_INT16_INT32_INT64_COMPLEX_UINT32_UINT64 = (
    "bfloat16 float16 float32 float64 uint8 int8 uint16 int16 int32 int64 complex64 complex128 uint32 uint64")
FLOAT_UINT8_INT8_UINT16_INT16_INT32_UINT32_UINT64_INT64_COMPLEX = (
    "bfloat16 float16 float32 float64 uint8 int8 uint16 int16 int32 uint32 uint64 int64 complex64 complex128")
FLOAT_UINT_INT_COMPLEX = (
    "bfloat16 float16 float32 float64 uint8 uint16 uint32 uint64 int8 int16 int32 int64 complex64 complex128")
INT16_INT32_INT64 = "int16 int32 int64"
INT16_INT32_INT64_UINT16 = "int16 int32 int64 uint16"
INT16_UINT16_INT32_INT64 = "int16 uint16 int32 int64"
INT32_INT64 = "int32 int64"
INT32_INT64_FLOAT = "int32 int64 bfloat16 float16 float32 float64"
INT32_INT64_FLOAT32_FLOAT64 = "int32 int64 float32 float64"
INT32_INT64_UINT32_UINT64 = "int32 int64 uint32 uint64"
INT8_INT32_INT64 = "int8 int32 int64"
INT8_UINT8_INT16_UINT16_INT32_INT64_BF16_F16_F32_F64_BF16 = (
    "int8 uint8 int16 uint16 int32 int64 bfloat16 float16 float32 float64 bfloat16")
INT8_UINT8_INT16_UINT16_INT32_INT64_F16_F32_F64_BF16 = (
    "int8 uint8 int16 uint16 int32 int64 float16 float32 float64 bfloat16")
INT8_UINT8_INT16_UINT16_INT32_INT64_FLOAT = "int8 uint8 int16 uint16 int32 int64 bfloat16 float16 float32 float64"
INT_UINT = "int8 int16 int32 int64 uint8 uint16 uint32 uint64"
INT_UINT_FLOAT = "int8 int16 int32 int64 uint8 uint16 uint32 uint64 bfloat16 float16 float32 float64"
NUMBER_TYPES = (
    "float32 float64 int32 uint8 int16 int8 complex64 int64 qint8 quint8 qint32 bfloat16 qint16 quint16 uint16 "
    "complex128 float16 uint32 uint64")
NUMBER_TYPES_BOOL = (
    "float32 float64 int32 uint8 int16 int8 complex64 int64 qint8 quint8 qint32 bfloat16 qint16 quint16 uint16 "
    "complex128 float16 uint32 uint64 bool")
NUMBER_TYPES_VARIANT = (
    "float32 float64 int32 uint8 int16 int8 complex64 int64 qint8 quint8 qint32 bfloat16 qint16 quint16 uint16 "
    "complex128 float16 uint32 uint64 variant")
REAL_NUMBER_TYPES = "float32 float64 int32 uint8 int16 int8 int64 bfloat16 uint16 float16 uint32 uint64"
REAL_NUMBER_TYPES_COMPLEX_BOOL_VARIANT_STRING = (
    "float32 float64 int32 uint8 int16 int8 int64 bfloat16 uint16 float16 uint32 uint64 complex64 complex128 bool "
    "variant string")
REAL_NUMBER_TYPES_QINT8 = "float32 float64 int32 uint8 int16 int8 int64 bfloat16 uint16 float16 uint32 uint64 qint8"
REAL_NUMBER_TYPES_QUANTIZED = (
    "float32 float64 int32 uint8 int16 int8 int64 bfloat16 uint16 float16 uint32 uint64 qint8 quint8 qint32 qint16 "
    "quint16")
REAL_NUMBER_TYPES_QUANTIZED_BOOL = (
    "float32 float64 int32 uint8 int16 int8 int64 bfloat16 uint16 float16 uint32 uint64 qint8 quint8 qint32 qint16 "
    "quint16 bool")
UINT8_INT8_INT32_F16_F32_F64_BF16 = "uint8 int8 int32 float16 float32 float64 bfloat16"
UINT8_INT8_INT32_INT64 = "uint8 int8 int32 int64"
UINT8_INT8_UINT16_INT16_INT32_UINT32_INT64_UINT64_BOOL_FLOAT_COMPLEX_STRING = (
    "uint8 int8 uint16 int16 int32 uint32 int64 uint64 bool bfloat16 float16 float32 float64 complex64 complex128 "
    "string")

# op name -> {attr name: its allowed dtypes}
_BY_OP = {
    "Abs": {"T": FLOAT_INT},
    "Acos": {"T": FLOAT_COMPLEX},
    "Acosh": {"T": FLOAT_COMPLEX},
    "AddN": {"T": NUMBER_TYPES_VARIANT},
    "AddV2": {"T": FLOAT_UINT_INT_COMPLEX},
    "All": {"Tidx": INT32_INT64},
    "Angle": {"T": COMPLEX, "Tout": FLOAT32_FLOAT64},
    "Any": {"Tidx": INT32_INT64},
    "ArgMax": {"T": REAL_NUMBER_TYPES_QUANTIZED_BOOL, "Tidx": INT16_INT32_INT64,
               "output_type": INT16_UINT16_INT32_INT64},
    "ArgMin": {"T": REAL_NUMBER_TYPES_QUANTIZED_BOOL, "Tidx": INT32_INT64, "output_type": INT32_INT64},
    "AsString": {"T": REAL_NUMBER_TYPES_COMPLEX_BOOL_VARIANT_STRING},
    "Asin": {"T": FLOAT_COMPLEX},
    "Asinh": {"T": FLOAT_COMPLEX},
    "Atan": {"T": FLOAT_COMPLEX},
    "Atan2": {"T": FLOAT},
    "Atanh": {"T": FLOAT_COMPLEX},
    "AvgPool": {"T": F16_BF16_F32_F64},
    "AvgPoolGrad": {"T": F16_BF16_F32_F64},
    "BatchMatMulV2": {"T": FLOAT_INT16_INT32_INT64_UINT_COMPLEX},
    "BesselI0": {"T": FLOAT},
    "BesselI0e": {"T": FLOAT},
    "BesselI1": {"T": FLOAT},
    "BesselI1e": {"T": FLOAT},
    "Betainc": {"T": FLOAT32_FLOAT64},
    "BiasAdd": {"T": NUMBER_TYPES},
    "BiasAddGrad": {"T": NUMBER_TYPES},
    "Bitcast": {"T": "bfloat16 float16 float32 float64 int64 int32 uint8 uint16 uint32 uint64 int8 int16 complex64 "
                     "complex128 qint8 quint8 qint16 quint16 qint32",
                "type": "bfloat16 float16 float32 float64 int64 int32 uint8 uint16 uint32 uint64 int8 int16 complex64 "
                        "complex128 qint8 quint8 qint16 quint16 qint32"},
    "BitwiseAnd": {"T": INT_UINT},
    "BitwiseOr": {"T": INT_UINT},
    "BitwiseXor": {"T": INT_UINT},
    "BroadcastTo": {"Tidx": INT32_INT64},
    "Ceil": {"T": FLOAT},
    "CheckNumerics": {"T": FLOAT},
    "Cholesky": {"T": F64_F32_F16_COMPLEX},
    "ClipByValue": {"T": NUMBER_TYPES},
    "ComplexAbs": {"T": COMPLEX, "Tout": FLOAT32_FLOAT64},
    "ConcatV2": {"Tidx": INT32_INT64},
    "Conj": {"T": COMPLEX_VARIANT},
    "Conv2D": {"T": F16_BF16_F32_F64_INT32},
    "Conv3D": {"T": F16_BF16_F32_F64},
    "Conv2DBackpropFilter": {"T": F16_BF16_F32_F64},
    "Conv2DBackpropInput": {"T": F16_BF16_F32_F64_INT32},
    "Cos": {"T": FLOAT_COMPLEX},
    "Cosh": {"T": FLOAT_COMPLEX},
    "Cross": {"T": REAL_NUMBER_TYPES},
    "Cumprod": {"T": NUMBER_TYPES, "Tidx": INT32_INT64},
    "Cumsum": {"T": NUMBER_TYPES, "Tidx": INT32_INT64},
    "CumulativeLogsumexp": {"T": FLOAT, "Tidx": INT32_INT64},
    "DenseBincount": {"T": INT32_INT64_FLOAT32_FLOAT64, "Tidx": INT32_INT64},
    "DepthwiseConv2dNative": {"T": F16_BF16_F32_F64},
    "DepthwiseConv2dNativeBackpropFilter": {"T": F16_BF16_F32_F64},
    "DepthwiseConv2dNativeBackpropInput": {"T": F16_BF16_F32_F64},
    "Digamma": {"T": FLOAT},
    "DivNoNan": {"T": F16_F32_BF16_F64_COMPLEX},
    "Elu": {"T": F16_BF16_F32_F64},
    "Erf": {"T": FLOAT},
    "Erfc": {"T": FLOAT},
    "Erfinv": {"T": FLOAT},
    "Exp": {"T": FLOAT_COMPLEX},
    "ExpandDims": {"Tdim": INT32_INT64},
    "Expm1": {"T": FLOAT_COMPLEX},
    "Fill": {"index_type": INT32_INT64},
    "Floor": {"T": FLOAT},
    "FloorDiv": {"T": FLOAT_UINT8_INT8_UINT16_INT16_INT32_UINT32_UINT64_INT64_COMPLEX},
    "FloorMod": {"T": INT_UINT_FLOAT},
    "GatherNd": {"Tindices": INT16_INT32_INT64},
    "GatherV2": {"Taxis": INT32_INT64, "Tindices": INT16_INT32_INT64},
    "Greater": {"T": REAL_NUMBER_TYPES},
    "GreaterEqual": {"T": REAL_NUMBER_TYPES},
    "Igamma": {"T": FLOAT},
    "IgammaGradA": {"T": FLOAT32_FLOAT64},
    "Igammac": {"T": FLOAT},
    "Imag": {"T": COMPLEX, "Tout": FLOAT32_FLOAT64},
    "InTopKV2": {"T": INT32_INT64},
    "Invert": {"T": INT_UINT},
    "InvertPermutation": {"T": INT32_INT64},
    "IsFinite": {"T": FLOAT},
    "IsInf": {"T": FLOAT},
    "IsNan": {"T": FLOAT},
    "L2Loss": {"T": F16_BF16_F32_F64},
    "LRN": {"T": F16_BF16_F32},
    "LRNGrad": {"T": F16_BF16_F32},
    "LeakyRelu": {"T": F16_BF16_F32_F64},
    "LeftShift": {"T": INT_UINT},
    "Less": {"T": REAL_NUMBER_TYPES},
    "LessEqual": {"T": REAL_NUMBER_TYPES},
    "Lgamma": {"T": FLOAT},
    "LinSpace": {"T": FLOAT, "Tidx": INT32_INT64},
    "Log": {"T": FLOAT_COMPLEX},
    "Log1p": {"T": FLOAT_COMPLEX},
    "LogMatrixDeterminant": {"T": F16_F32_F64_COMPLEX},
    "LogSoftmax": {"T": F16_BF16_F32_F64},
    "LowerBound": {"out_type": INT32_INT64},
    "MatMul": {"T": FLOAT_INT32_INT64_UINT_COMPLEX},
    "MatrixBandPart": {"Tindex": INT32_INT64},
    "MatrixDeterminant": {"T": F16_F32_F64_COMPLEX},
    "MatrixInverse": {"T": F64_F32_F16_COMPLEX},
    "MatrixSolve": {"T": F64_F32_F16_COMPLEX},
    "MatrixTriangularSolve": {"T": BF16_F64_F32_F16_COMPLEX},
    "Max": {"T": REAL_NUMBER_TYPES_QUANTIZED, "Tidx": INT32_INT64},
    "MaxPool": {"T": F16_BF16_F32_F64_INT32_INT64_UINT8_INT16_INT8_UINT16_QINT8},
    "MaxPool3D": {"T": F16_BF16_F32},
    "MaxPoolGrad": {"T": REAL_NUMBER_TYPES},
    "MaxPoolGradWithArgmax": {"T": REAL_NUMBER_TYPES, "Targmax": INT32_INT64},
    "MaxPoolWithArgmax": {"T": REAL_NUMBER_TYPES, "Targmax": INT32_INT64},
    "MaxPoolGradGrad": {"T": REAL_NUMBER_TYPES},
    "Maximum": {"T": FLOAT_INTS_BY_WIDTH},
    "Mean": {"T": NUMBER_TYPES, "Tidx": INT32_INT64},
    "Min": {"T": REAL_NUMBER_TYPES_QUANTIZED, "Tidx": INT32_INT64},
    "Minimum": {"T": FLOAT_INTS_BY_WIDTH},
    "MirrorPad": {"Tpaddings": INT32_INT64},
    "MirrorPadGrad": {"Tpaddings": INT32_INT64},
    "Mul": {"T": FLOAT_UINT8_INT8_UINT16_INT16_INT32_UINT32_UINT64_INT64_COMPLEX},
    "Multinomial": {"T": REAL_NUMBER_TYPES, "output_dtype": INT32_INT64},
    "Ndtri": {"T": FLOAT},
    "Neg": {"T": FLOAT_INT_COMPLEX},
    "NextAfter": {"T": FLOAT64_FLOAT32},
    "OneHot": {"TI": UINT8_INT8_INT32_INT64},
    "OnesLike": {"T": FLOAT_INTS_BY_WIDTH_COMPLEX_BOOL},
    "Pad": {"Tpaddings": INT32_INT64},
    "PadV2": {"Tpaddings": INT32_INT64},
    "Polygamma": {"T": FLOAT32_FLOAT64},
    "Pow": {"T": BF16_F32_F16_F64_INT_COMPLEX},
    "Prod": {"T": NUMBER_TYPES, "Tidx": INT32_INT64},
    "Qr": {"T": F64_F32_F16_COMPLEX},
    "RandomGamma": {"S": INT32_INT64, "T": F16_F32_F64},
    "RandomGammaGrad": {"T": FLOAT32_FLOAT64},
    "RandomPoissonV2": {"R": F16_F32_F64_INT32_INT64, "S": INT32_INT64, "dtype": F16_F32_F64_INT32_INT64},
    "RandomStandardNormal": {"T": INT32_INT64, "dtype": F16_BF16_F32_F64},
    "RandomUniform": {"T": INT32_INT64, "dtype": F16_BF16_F32_F64},
    "RandomUniformInt": {"T": INT32_INT64, "Tout": INT32_INT64},
    "Range": {"Tidx": FLOAT_INT_UINT16_UINT32_UINT64},
    "Real": {"T": COMPLEX, "Tout": FLOAT32_FLOAT64},
    "RealDiv": {"T": FLOAT_UINT8_INT8_UINT16_INT16_INT32_UINT32_UINT64_INT64_COMPLEX},
    "Reciprocal": {"T": FLOAT_INT_COMPLEX},
    "Relu": {"T": REAL_NUMBER_TYPES_QINT8},
    "Relu6": {"T": REAL_NUMBER_TYPES},
    "ReluGrad": {"T": REAL_NUMBER_TYPES},
    "Reshape": {"Tshape": INT32_INT64},
    "ResizeArea": {"T": INT8_UINT8_INT16_UINT16_INT32_INT64_F16_F32_F64_BF16},
    "ResizeBicubic": {"T": INT8_UINT8_INT16_UINT16_INT32_INT64_F16_F32_F64_BF16},
    "ResizeBicubicGrad": {"T": FLOAT32_FLOAT64},
    "ResizeBilinear": {"T": INT8_UINT8_INT16_UINT16_INT32_INT64_BF16_F16_F32_F64_BF16},
    "ResizeBilinearGrad": {"T": F32_BF16_F16_F64},
    "ResizeNearestNeighbor": {"T": INT8_UINT8_INT16_UINT16_INT32_INT64_F16_F32_F64_BF16},
    "ResizeNearestNeighborGrad": {"T": UINT8_INT8_INT32_F16_F32_F64_BF16},
    "ResourceCountUpTo": {"T": INT32_INT64},
    "ResourceScatterAdd": {"Tindices": INT32_INT64, "dtype": NUMBER_TYPES},
    "ResourceScatterDiv": {"Tindices": INT32_INT64, "dtype": NUMBER_TYPES},
    "ResourceScatterMax": {"Tindices": INT32_INT64, "dtype": NUMBER_TYPES},
    "ResourceScatterMin": {"Tindices": INT32_INT64, "dtype": NUMBER_TYPES},
    "ResourceScatterMul": {"Tindices": INT32_INT64, "dtype": NUMBER_TYPES},
    "ResourceScatterNdAdd": {"Tindices": INT32_INT64},
    "ResourceScatterNdMax": {"Tindices": INT32_INT64},
    "ResourceScatterNdMin": {"Tindices": INT32_INT64},
    "ResourceScatterNdSub": {"Tindices": INT32_INT64},
    "ResourceScatterNdUpdate": {"Tindices": INT32_INT64},
    "ResourceScatterSub": {"Tindices": INT32_INT64, "dtype": NUMBER_TYPES},
    "ResourceScatterUpdate": {"Tindices": INT32_INT64},
    "ResourceStridedSliceAssign": {"Index": INT32_INT64},
    "ReverseV2": {"T": UINT8_INT8_UINT16_INT16_INT32_UINT32_INT64_UINT64_BOOL_FLOAT_COMPLEX_STRING,
                  "Tidx": INT32_INT64},
    "RightShift": {"T": INT_UINT},
    "Rint": {"T": FLOAT},
    "Round": {"T": FLOAT_INT_COMPLEX},
    "Rsqrt": {"T": FLOAT_COMPLEX},
    "ScaleAndTranslate": {"T": INT8_UINT8_INT16_UINT16_INT32_INT64_FLOAT},
    "ScaleAndTranslateGrad": {"T": FLOAT32},
    "ScatterNd": {"Tindices": INT16_INT32_INT64},
    "SegmentMax": {"T": REAL_NUMBER_TYPES, "Tindices": INT32_INT64},
    "SegmentMin": {"T": REAL_NUMBER_TYPES, "Tindices": INT32_INT64},
    "SegmentProd": {"T": NUMBER_TYPES, "Tindices": INT32_INT64},
    "SegmentSum": {"T": NUMBER_TYPES, "Tindices": INT32_INT64},
    "SelfAdjointEigV2": {"T": F64_F32_F16_COMPLEX},
    "Selu": {"T": F16_BF16_F32_F64},
    "Shape": {"out_type": INT32_INT64},
    "Sigmoid": {"T": FLOAT_COMPLEX},
    "Sign": {"T": FLOAT_INT_COMPLEX},
    "Sin": {"T": FLOAT_COMPLEX},
    "Sinh": {"T": FLOAT_COMPLEX},
    "Size": {"out_type": INT32_INT64},
    "Slice": {"Index": INT32_INT64},
    "Softmax": {"T": F16_BF16_F32_F64},
    "SoftmaxCrossEntropyWithLogits": {"T": F16_BF16_F32_F64},
    "Softplus": {"T": F16_BF16_F32_F64},
    "Softsign": {"T": F16_BF16_F32_F64},
    "SparseSoftmaxCrossEntropyWithLogits": {"T": F16_BF16_F32_F64, "Tlabels": INT32_INT64},
    "SplitV": {"Tlen": INT8_INT32_INT64},
    "Sqrt": {"T": FLOAT_COMPLEX},
    "Square": {"T": FLOAT_INT_UINT_COMPLEX},
    "SquaredDifference": {"T": FLOAT_INT32_INT64_COMPLEX},
    "StatelessMultinomial": {"T": REAL_NUMBER_TYPES, "Tseed": INT32_INT64, "output_dtype": INT32_INT64},
    "StatelessRandomGetKeyCounter": {"Tseed": INT32_INT64},
    "StatelessRandomNormalV2": {"Tshape": INT32_INT64, "dtype": F16_BF16_F32_F64},
    "StatelessRandomUniformFullIntV2": {"Tshape": INT32_INT64, "dtype": INT32_INT64_UINT32_UINT64},
    "StatelessRandomUniformIntV2": {"Tshape": INT32_INT64, "dtype": INT32_INT64_UINT32_UINT64},
    "StatelessRandomUniformV2": {"Tshape": INT32_INT64, "dtype": F16_BF16_F32_F64},
    "StatelessTruncatedNormalV2": {"Tshape": INT32_INT64, "dtype": F16_BF16_F32_F64},
    "StridedSlice": {"Index": INT16_INT32_INT64},
    "StridedSliceGrad": {"Index": INT32_INT64},
    "StringToNumber": {"out_type": FLOAT32_FLOAT64_INT32_INT64_UINT32_UINT64},
    "Sub": {"T": FLOAT_UINT8_INT8_UINT16_INT16_INT32_INT64_COMPLEX_UINT32_UINT64},
    "Substr": {"T": INT32_INT64},
    "Sum": {"T": NUMBER_TYPES, "Tidx": INT32_INT64},
    "Svd": {"T": F64_F32_F16_COMPLEX},
    "Tan": {"T": FLOAT_COMPLEX},
    "Tanh": {"T": FLOAT_COMPLEX},
    "TensorListConcatV2": {"shape_type": INT32_INT64},
    "TensorListFromTensor": {"shape_type": INT32_INT64},
    "TensorListGetItem": {"Tshape": INT32_INT64},
    "TensorListReserve": {"shape_type": INT32_INT64},
    "TensorListSplit": {"shape_type": INT32_INT64},
    "TensorScatterAdd": {"Tindices": INT32_INT64},
    "TensorScatterMax": {"Tindices": INT32_INT64},
    "TensorScatterMin": {"Tindices": INT32_INT64},
    "TensorScatterSub": {"Tindices": INT32_INT64},
    "TensorScatterUpdate": {"Tindices": INT16_INT32_INT64_UINT16},
    "Tile": {"Tmultiples": INT32_INT64},
    "TopKV2": {"T": REAL_NUMBER_TYPES, "Tk": INT16_INT32_INT64, "index_type": INT16_INT32_INT64},
    "Transpose": {"Tperm": INT32_INT64},
    "TridiagonalMatMul": {"T": F64_F32_COMPLEX},
    "TridiagonalSolve": {"T": F64_F32_COMPLEX},
    "TruncateDiv": {"T": FLOAT_UINT8_INT8_UINT16_INT16_INT32_UINT32_UINT64_INT64_COMPLEX},
    "TruncateMod": {"T": INT32_INT64_FLOAT},
    "TruncatedNormal": {"T": INT32_INT64, "dtype": F16_BF16_F32_F64},
    "Unique": {"out_idx": INT32_INT64},
    "UniqueWithCounts": {"out_idx": INT32_INT64},
    "UnsortedSegmentMax": {"T": REAL_NUMBER_TYPES, "Tindices": INT32_INT64, "Tnumsegments": INT32_INT64},
    "UnsortedSegmentMin": {"T": REAL_NUMBER_TYPES, "Tindices": INT32_INT64, "Tnumsegments": INT32_INT64},
    "UnsortedSegmentProd": {"T": NUMBER_TYPES, "Tindices": INT32_INT64, "Tnumsegments": INT32_INT64},
    "UnsortedSegmentSum": {"T": NUMBER_TYPES, "Tindices": INT16_INT32_INT64, "Tnumsegments": INT32_INT64},
    "UpperBound": {"out_type": INT32_INT64},
    "Where": {"T": NUMBER_TYPES_BOOL},
    "Xlogy": {"T": F16_BF16_F32_F64_COMPLEX},
    "Zeta": {"T": FLOAT32_FLOAT64},
}


def tf_allowed_names(op_name: str, attr: str = "T") -> list[str] | None:
    """TensorFlow's allowed dtypes for `attr` of `op_name`, in TensorFlow's order (None: not listed)."""
    names = _BY_OP.get(op_name, {}).get(attr)
    return names.split() if names is not None else None
