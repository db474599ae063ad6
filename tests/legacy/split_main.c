/* The main of a program whose NX calls live in another file
 * (split_work.c): this file includes no mcemu header, as many did. */
#include <stdio.h>

extern void work();

int main(argc, argv)
int argc;
char **argv;
{
    work();
    return 0;
}
