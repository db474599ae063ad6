C     fnx.h: NX for Fortran 77 node programs on mcemu (include with
C     INCLUDE 'fnx.h'; mcef77 puts mcemu's include directory on the path).
C     The routines are the NX calls of nx.h with INTEGER*4 arguments; the
C     functions are typed here as legacy codes expect.
      INTEGER MYNODE, NUMNODES, MYHOST, MYPID, MYPTYPE, NODEDIM
      INTEGER ISEND, IRECV, IRECVX, ISENDRECV, CSENDRECV
      INTEGER MSGDONE, MSGMERGE, IPROBE, IPROBEX
      INTEGER INFOCOUNT, INFONODE, INFOTYPE, INFOPTYPE, INFOPID
      INTEGER MASKTRAP, HRECV, HRECVX, HSEND
      DOUBLE PRECISION DCLOCK
      EXTERNAL DCLOCK
      INTEGER FORCE_TYPE
      PARAMETER (FORCE_TYPE = 1073741824)
