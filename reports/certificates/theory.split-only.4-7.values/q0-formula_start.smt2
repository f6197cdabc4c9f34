; benchmark generated from python API
(set-info :status unknown)
(declare-fun n () Int)
(assert
 (let ((?x312083 (ite (= 0 (+ n 2)) 0 (- 2 (mod (+ n 2) 2)))))
(let (($x122581 (= ?x312083 (+ (ite (= 0 n) 0 (- 2 (mod n 2))) 0))))
(let (($x267360 (>= n 1)))
(and $x267360 (or (and (distinct true true) true) (and true (not $x122581))))))))
(check-sat)
