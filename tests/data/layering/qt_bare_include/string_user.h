#pragma once
// Violates no-qt: a bare Qt class header, with spacing after '#'.
#include <QString>
