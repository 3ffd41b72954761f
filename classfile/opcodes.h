// Opcode numbers, names and operand formats of every JVM instruction (JVMS chapter 6).
#pragma once

#include <cstdint>

namespace jsched::cf {

enum class Operand : uint8_t {
  None,
  S1,
  S2,
  Cp1,
  Cp2,
  Local,
  Iinc,
  Branch,
  Branch4,
  TableSwitch,
  LookupSwitch,
  InvokeInterface,
  InvokeDynamic,
  NewArray,
  MultiANewArray,
  Wide,
  Invalid
};

namespace op {
inline constexpr uint8_t nop = 0;
inline constexpr uint8_t aconst_null = 1;
inline constexpr uint8_t iconst_m1 = 2;
inline constexpr uint8_t iconst_0 = 3;
inline constexpr uint8_t iconst_1 = 4;
inline constexpr uint8_t iconst_2 = 5;
inline constexpr uint8_t iconst_3 = 6;
inline constexpr uint8_t iconst_4 = 7;
inline constexpr uint8_t iconst_5 = 8;
inline constexpr uint8_t lconst_0 = 9;
inline constexpr uint8_t lconst_1 = 10;
inline constexpr uint8_t fconst_0 = 11;
inline constexpr uint8_t fconst_1 = 12;
inline constexpr uint8_t fconst_2 = 13;
inline constexpr uint8_t dconst_0 = 14;
inline constexpr uint8_t dconst_1 = 15;
inline constexpr uint8_t bipush = 16;
inline constexpr uint8_t sipush = 17;
inline constexpr uint8_t ldc = 18;
inline constexpr uint8_t ldc_w = 19;
inline constexpr uint8_t ldc2_w = 20;
inline constexpr uint8_t iload = 21;
inline constexpr uint8_t lload = 22;
inline constexpr uint8_t fload = 23;
inline constexpr uint8_t dload = 24;
inline constexpr uint8_t aload = 25;
inline constexpr uint8_t iload_0 = 26;
inline constexpr uint8_t iload_1 = 27;
inline constexpr uint8_t iload_2 = 28;
inline constexpr uint8_t iload_3 = 29;
inline constexpr uint8_t lload_0 = 30;
inline constexpr uint8_t lload_1 = 31;
inline constexpr uint8_t lload_2 = 32;
inline constexpr uint8_t lload_3 = 33;
inline constexpr uint8_t fload_0 = 34;
inline constexpr uint8_t fload_1 = 35;
inline constexpr uint8_t fload_2 = 36;
inline constexpr uint8_t fload_3 = 37;
inline constexpr uint8_t dload_0 = 38;
inline constexpr uint8_t dload_1 = 39;
inline constexpr uint8_t dload_2 = 40;
inline constexpr uint8_t dload_3 = 41;
inline constexpr uint8_t aload_0 = 42;
inline constexpr uint8_t aload_1 = 43;
inline constexpr uint8_t aload_2 = 44;
inline constexpr uint8_t aload_3 = 45;
inline constexpr uint8_t iaload = 46;
inline constexpr uint8_t laload = 47;
inline constexpr uint8_t faload = 48;
inline constexpr uint8_t daload = 49;
inline constexpr uint8_t aaload = 50;
inline constexpr uint8_t baload = 51;
inline constexpr uint8_t caload = 52;
inline constexpr uint8_t saload = 53;
inline constexpr uint8_t istore = 54;
inline constexpr uint8_t lstore = 55;
inline constexpr uint8_t fstore = 56;
inline constexpr uint8_t dstore = 57;
inline constexpr uint8_t astore = 58;
inline constexpr uint8_t istore_0 = 59;
inline constexpr uint8_t istore_1 = 60;
inline constexpr uint8_t istore_2 = 61;
inline constexpr uint8_t istore_3 = 62;
inline constexpr uint8_t lstore_0 = 63;
inline constexpr uint8_t lstore_1 = 64;
inline constexpr uint8_t lstore_2 = 65;
inline constexpr uint8_t lstore_3 = 66;
inline constexpr uint8_t fstore_0 = 67;
inline constexpr uint8_t fstore_1 = 68;
inline constexpr uint8_t fstore_2 = 69;
inline constexpr uint8_t fstore_3 = 70;
inline constexpr uint8_t dstore_0 = 71;
inline constexpr uint8_t dstore_1 = 72;
inline constexpr uint8_t dstore_2 = 73;
inline constexpr uint8_t dstore_3 = 74;
inline constexpr uint8_t astore_0 = 75;
inline constexpr uint8_t astore_1 = 76;
inline constexpr uint8_t astore_2 = 77;
inline constexpr uint8_t astore_3 = 78;
inline constexpr uint8_t iastore = 79;
inline constexpr uint8_t lastore = 80;
inline constexpr uint8_t fastore = 81;
inline constexpr uint8_t dastore = 82;
inline constexpr uint8_t aastore = 83;
inline constexpr uint8_t bastore = 84;
inline constexpr uint8_t castore = 85;
inline constexpr uint8_t sastore = 86;
inline constexpr uint8_t pop = 87;
inline constexpr uint8_t pop2 = 88;
inline constexpr uint8_t dup = 89;
inline constexpr uint8_t dup_x1 = 90;
inline constexpr uint8_t dup_x2 = 91;
inline constexpr uint8_t dup2 = 92;
inline constexpr uint8_t dup2_x1 = 93;
inline constexpr uint8_t dup2_x2 = 94;
inline constexpr uint8_t swap = 95;
inline constexpr uint8_t iadd = 96;
inline constexpr uint8_t ladd = 97;
inline constexpr uint8_t fadd = 98;
inline constexpr uint8_t dadd = 99;
inline constexpr uint8_t isub = 100;
inline constexpr uint8_t lsub = 101;
inline constexpr uint8_t fsub = 102;
inline constexpr uint8_t dsub = 103;
inline constexpr uint8_t imul = 104;
inline constexpr uint8_t lmul = 105;
inline constexpr uint8_t fmul = 106;
inline constexpr uint8_t dmul = 107;
inline constexpr uint8_t idiv = 108;
inline constexpr uint8_t ldiv = 109;
inline constexpr uint8_t fdiv = 110;
inline constexpr uint8_t ddiv = 111;
inline constexpr uint8_t irem = 112;
inline constexpr uint8_t lrem = 113;
inline constexpr uint8_t frem = 114;
inline constexpr uint8_t drem = 115;
inline constexpr uint8_t ineg = 116;
inline constexpr uint8_t lneg = 117;
inline constexpr uint8_t fneg = 118;
inline constexpr uint8_t dneg = 119;
inline constexpr uint8_t ishl = 120;
inline constexpr uint8_t lshl = 121;
inline constexpr uint8_t ishr = 122;
inline constexpr uint8_t lshr = 123;
inline constexpr uint8_t iushr = 124;
inline constexpr uint8_t lushr = 125;
inline constexpr uint8_t iand = 126;
inline constexpr uint8_t land = 127;
inline constexpr uint8_t ior = 128;
inline constexpr uint8_t lor = 129;
inline constexpr uint8_t ixor = 130;
inline constexpr uint8_t lxor = 131;
inline constexpr uint8_t iinc = 132;
inline constexpr uint8_t i2l = 133;
inline constexpr uint8_t i2f = 134;
inline constexpr uint8_t i2d = 135;
inline constexpr uint8_t l2i = 136;
inline constexpr uint8_t l2f = 137;
inline constexpr uint8_t l2d = 138;
inline constexpr uint8_t f2i = 139;
inline constexpr uint8_t f2l = 140;
inline constexpr uint8_t f2d = 141;
inline constexpr uint8_t d2i = 142;
inline constexpr uint8_t d2l = 143;
inline constexpr uint8_t d2f = 144;
inline constexpr uint8_t i2b = 145;
inline constexpr uint8_t i2c = 146;
inline constexpr uint8_t i2s = 147;
inline constexpr uint8_t lcmp = 148;
inline constexpr uint8_t fcmpl = 149;
inline constexpr uint8_t fcmpg = 150;
inline constexpr uint8_t dcmpl = 151;
inline constexpr uint8_t dcmpg = 152;
inline constexpr uint8_t ifeq = 153;
inline constexpr uint8_t ifne = 154;
inline constexpr uint8_t iflt = 155;
inline constexpr uint8_t ifge = 156;
inline constexpr uint8_t ifgt = 157;
inline constexpr uint8_t ifle = 158;
inline constexpr uint8_t if_icmpeq = 159;
inline constexpr uint8_t if_icmpne = 160;
inline constexpr uint8_t if_icmplt = 161;
inline constexpr uint8_t if_icmpge = 162;
inline constexpr uint8_t if_icmpgt = 163;
inline constexpr uint8_t if_icmple = 164;
inline constexpr uint8_t if_acmpeq = 165;
inline constexpr uint8_t if_acmpne = 166;
inline constexpr uint8_t goto_ = 167;
inline constexpr uint8_t jsr = 168;
inline constexpr uint8_t ret = 169;
inline constexpr uint8_t tableswitch = 170;
inline constexpr uint8_t lookupswitch = 171;
inline constexpr uint8_t ireturn = 172;
inline constexpr uint8_t lreturn = 173;
inline constexpr uint8_t freturn = 174;
inline constexpr uint8_t dreturn = 175;
inline constexpr uint8_t areturn = 176;
inline constexpr uint8_t return_ = 177;
inline constexpr uint8_t getstatic = 178;
inline constexpr uint8_t putstatic = 179;
inline constexpr uint8_t getfield = 180;
inline constexpr uint8_t putfield = 181;
inline constexpr uint8_t invokevirtual = 182;
inline constexpr uint8_t invokespecial = 183;
inline constexpr uint8_t invokestatic = 184;
inline constexpr uint8_t invokeinterface = 185;
inline constexpr uint8_t invokedynamic = 186;
inline constexpr uint8_t new_ = 187;
inline constexpr uint8_t newarray = 188;
inline constexpr uint8_t anewarray = 189;
inline constexpr uint8_t arraylength = 190;
inline constexpr uint8_t athrow = 191;
inline constexpr uint8_t checkcast = 192;
inline constexpr uint8_t instanceof = 193;
inline constexpr uint8_t monitorenter = 194;
inline constexpr uint8_t monitorexit = 195;
inline constexpr uint8_t wide = 196;
inline constexpr uint8_t multianewarray = 197;
inline constexpr uint8_t ifnull = 198;
inline constexpr uint8_t ifnonnull = 199;
inline constexpr uint8_t goto_w = 200;
inline constexpr uint8_t jsr_w = 201;
}  // namespace op

struct OpInfo {
  const char* name;
  Operand operand;
  uint8_t length;  // encoded length without a wide prefix; 0 for the switches
};

// Indexed by opcode; entries 202..255 are Operand::Invalid.
extern const OpInfo kOps[256];

inline bool is_branch(uint8_t o) {
  return kOps[o].operand == Operand::Branch || kOps[o].operand == Operand::Branch4;
}
inline bool is_conditional_branch(uint8_t o) {
  return (o >= op::ifeq && o <= op::if_acmpne) || o == op::ifnull || o == op::ifnonnull;
}
inline bool is_array_load(uint8_t o) {
  return o >= op::iaload && o <= op::saload;
}
inline bool is_array_store(uint8_t o) {
  return o >= op::iastore && o <= op::sastore;
}
inline bool is_invoke(uint8_t o) {
  return o >= op::invokevirtual && o <= op::invokedynamic;
}
inline bool is_return(uint8_t o) {
  return o >= op::ireturn && o <= op::return_;
}
// Instructions after which control never falls through to the next one.
inline bool ends_block(uint8_t o) {
  return o == op::goto_ || o == op::goto_w || o == op::athrow || o == op::ret || is_return(o) ||
         o == op::tableswitch || o == op::lookupswitch;
}

}  // namespace jsched::cf
