; benchmark generated from python API
(set-info :status unknown)
(declare-fun n () Int)
(assert
 (let ((?x52287 (ite (= 0 (+ n 2)) 0 (- 2 (mod (+ n 2) 2)))))
(let (($x136464 (= ?x52287 (+ (ite (= 0 n) 0 (- 2 (mod n 2))) 0))))
(let (($x168979 (>= n 1)))
(and $x168979 (or (and (distinct true true) true) (and true (not $x136464))))))))
(check-sat)
