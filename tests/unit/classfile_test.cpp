#include <gtest/gtest.h>

#include "classfile/class_file.h"

TEST(Classfile, Placeholder) { SUCCEED(); }
